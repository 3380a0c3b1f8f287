import Foundation
import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `understudy ca export|path|reset`: the local CA's certificate for devices to trust, where it
/// lives, and a fresh one. `export` and `path` make the CA when there is none yet, so it can be
/// installed before the server's first start.
public enum CertificateAuthorityCommand {
    static let usage = """
        Usage: understudy ca export [--format pem|der] [--output FILE]   the CA certificate (never its key)
               understudy ca path                                        the CA certificate's file
               understudy ca reset                                       a new CA; old certificates stop being trusted
        Each also takes --ca-dir PATH, --database PATH and --config PATH as `serve` does.
        Without --ca-dir the CA is the one per user (~/.local/share/understudy/ca; on macOS
        ~/Library/Application Support/Understudy/ca), unless one exists beside the database.
        `ca reset` refuses while a running server uses the CA.
        """

    /// Runs `understudy ca …` (`arguments` start after `ca`) and returns the exit code: 0, 1 when
    /// the CA cannot be read or written, 2 for a usage error.
    public static func run(_ arguments: [String], environment: [String: String], standardOutput: FileHandle = .standardOutput) -> Int32 {
        guard let verb = arguments.first, !verb.hasPrefix("-") else {
            return usageError("`ca` needs a verb: export, path or reset")
        }
        var rest = Array(arguments.dropFirst())
        var format = CertificateExportFormat.pem
        var output: String?
        if verb == "export" {
            do {
                if let value = try take("--format", from: &rest) {
                    guard let parsed = CertificateExportFormat(rawValue: value.lowercased()) else {
                        return usageError("--format must be pem or der, not `\(value)`")
                    }
                    format = parsed
                }
                output = try take("--output", from: &rest)
            } catch {
                return usageError(error.description)
            }
        }
        let configuration: ServerConfiguration
        do {
            configuration = try UnderstudyCommand.parse(rest, environment: environment)
        } catch let error as ConfigurationError {
            return usageError(error.description)
        } catch {
            return usageError(UnderstudyCommand.text(of: error))
        }
        let location = configuration.caLocation
        let directory = absolute(location.path)
        do {
            switch verb {
            case "export": return try export(directory: directory, format: format, output: output, standardOutput: standardOutput)
            case "path":
                let authority = try LocalCertificateAuthority(directory: directory)
                standardOutput.write(Data((authority.certificatePath + "\n").utf8))
                // Standard output stays the bare path for `$(understudy ca path)`; why goes to the terminal.
                UnderstudyCommand.printError("(\(location.source.rawValue))")
                return 0
            case "reset":
                let path = try LocalCertificateAuthority.resetFiles(in: directory)
                standardOutput.write(
                    Data(
                        """
                        Made a new local CA: \(path)
                        Certificates issued by the old CA are no longer trusted. Install the new certificate on \
                        each device (`understudy ca export`). Servers started from now on sign with the new CA.

                        """.utf8))
                return 0
            default:
                return usageError("unknown `ca` verb `\(verb)`")
            }
        } catch {
            UnderstudyCommand.printError("understudy: \(UnderstudyCommand.text(of: error))")
            return 1
        }
    }

    private static func export(directory: String, format: CertificateExportFormat, output: String?, standardOutput: FileHandle) throws -> Int32 {
        guard let output else {
            // Binary on a terminal garbles it and helps nobody; text PEM is fine to show.
            if format == .der, isatty(standardOutput.fileDescriptor) == 1 {
                return usageError("DER is binary: use --output FILE or redirect standard output")
            }
            let authority = try LocalCertificateAuthority(directory: directory)
            standardOutput.write(Data(try authority.exportCertificate(as: format)))
            return 0
        }
        let authority = try LocalCertificateAuthority(directory: directory)
        let bytes = try authority.exportCertificate(as: format)
        do {
            try AtomicFile.write(bytes, to: output)
        } catch {
            UnderstudyCommand.printError("understudy: cannot write \(error.description)")
            return 1
        }
        UnderstudyCommand.printError("wrote the CA certificate (\(format.rawValue.uppercased())) from \(authority.certificatePath) to \(output)")
        return 0
    }

    /// Removes `flag VALUE` from `arguments` and returns the value (the last one when repeated).
    private static func take(_ flag: String, from arguments: inout [String]) throws(ConfigurationError) -> String? {
        var value: String?
        while let index = arguments.firstIndex(of: flag) {
            guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                throw ConfigurationError(description: "\(flag) needs a value")
            }
            value = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        return value
    }

    /// Paths are printed for pasting into other tools (`simctl`, `adb push`) run from other folders.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let current = FileManager.default.currentDirectoryPath
        return path == "." ? current : "\(current)/\(path.hasPrefix("./") ? String(path.dropFirst(2)) : path)"
    }

    private static func usageError(_ message: String) -> Int32 {
        UnderstudyCommand.printError("understudy: \(message)\n\n\(usage)")
        return 2
    }
}
