import Foundation
import HTTPServer
import TestProcesses
import Testing
import UnderstudyServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `understudy ca …` as a user runs it: the real binary, its standard output and exit status.
@Suite("understudy ca")
struct CertificateAuthorityCommandTests {
    private static let binary = LogFormatTests.repository.appendingPathComponent(".build/debug/understudy")

    private struct Outcome {
        var status: Int32
        var output: Data
        var errors: String
        var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs the binary with `arguments` and an empty UNDERSTUDY_* environment (the developer's own
    /// variables must not steer the test), from the repository folder.
    private func understudy(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the package first: \(Self.binary.path)")
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        inherited.merge(environment) { $1 }
        let finished = try await ChildProcess.running(Self.binary.path, arguments, environment: inherited, directory: LogFormatTests.repository.path)
        return Outcome(status: finished.status, output: finished.standardData, errors: finished.error)
    }

    private func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ca-cli-\(UUID().uuidString)").path
    }

    @Test("`ca path` makes one CA per user, whatever the checkout, and prints its certificate's path and why")
    func path() async throws {
        let (data, home) = (folder(), folder())
        #if os(macOS)
        let perUser = home + "/Library/Application Support/Understudy/ca"
        #else
        let perUser = home + "/.local/share/understudy/ca"
        #endif
        let user = ["HOME": home, "XDG_DATA_HOME": ""]
        let outcome = try await understudy(["ca", "path", "--database", data + "/db.sqlite"], environment: user)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.text == perUser + "/understudy-ca.pem\n")
        #expect(outcome.errors.contains("per-user default"))
        #expect(FileManager.default.fileExists(atPath: perUser + "/understudy-ca.key"))
        #expect(!FileManager.default.fileExists(atPath: data + "/understudy-ca.pem"), "nothing is made beside the database")
        #expect(!FileManager.default.fileExists(atPath: data + "/db.sqlite"), "the CA commands never touch the database")
        // Another checkout, run from anywhere, gets the same CA: a device trusts it once.
        let other = try await understudy(["ca", "export", "--database", folder() + "/db.sqlite"], environment: user)
        #expect(other.status == 0 && other.output == FileManager.default.contents(atPath: perUser + "/understudy-ca.pem"))
        // A CA an earlier version made beside the database keeps being used, and says so.
        let legacy = folder()
        #expect(try await understudy(["ca", "path", "--ca-dir", legacy]).status == 0)
        let kept = try await understudy(["ca", "path", "--database", legacy + "/db.sqlite"], environment: user)
        #expect(kept.text == legacy + "/understudy-ca.pem\n" && kept.errors.contains("beside the database"))
        // --ca-dir beats the database's folder, as for `serve`; so does UNDERSTUDY_CA_DIR.
        let elsewhere = folder()
        let flagged = try await understudy(["ca", "path", "--database", data + "/db.sqlite", "--ca-dir", elsewhere])
        #expect(flagged.text == elsewhere + "/understudy-ca.pem\n")
        let fromEnvironment = try await understudy(["ca", "path"], environment: ["UNDERSTUDY_CA_DIR": elsewhere])
        #expect(fromEnvironment.text == elsewhere + "/understudy-ca.pem\n")
    }

    @Test("`ca export` writes the PEM certificate to standard output: the file's bytes, no key")
    func exportPEM() async throws {
        let directory = folder()
        let outcome = try await understudy(["ca", "export", "--ca-dir", directory])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.text.hasPrefix("-----BEGIN CERTIFICATE-----\n") && outcome.text.hasSuffix("-----END CERTIFICATE-----\n"))
        #expect(!outcome.text.contains("PRIVATE KEY"))
        #expect(FileManager.default.contents(atPath: directory + "/understudy-ca.pem") == outcome.output)
        // Exporting again reuses the CA.
        #expect(try await understudy(["ca", "export", "--ca-dir", directory]).output == outcome.output)
    }

    @Test("`ca export --format der` to a pipe is the DER encoding of the same certificate; --output writes a file")
    func exportDER() async throws {
        let directory = folder()
        let pem = try await understudy(["ca", "export", "--ca-dir", directory, "--format", "pem"]).output
        let der = try await understudy(["ca", "export", "--format", "der", "--ca-dir", directory])
        #expect(der.status == 0, "\(der.errors)")
        #expect(der.output.first == 0x30, "an ASN.1 SEQUENCE")
        let authority = try LocalCertificateAuthority(directory: directory)
        #expect(try [UInt8](der.output) == authority.exportCertificate(as: .der))
        #expect(try [UInt8](pem) == authority.exportCertificate(as: .pem))

        let file = directory + "/exported.cer"
        let written = try await understudy(["ca", "export", "--format", "der", "--output", file, "--ca-dir", directory])
        #expect(written.status == 0 && written.output.isEmpty, "\(written.errors)")
        #expect(written.errors.contains(file))
        #expect(FileManager.default.contents(atPath: file) == der.output)
        let pemFile = directory + "/exported.pem"
        #expect(try await understudy(["ca", "export", "--output", pemFile, "--ca-dir", directory]).status == 0)
        #expect(FileManager.default.contents(atPath: pemFile) == pem)
    }

    @Test("`ca reset` makes a new CA and says old certificates are untrusted")
    func reset() async throws {
        let directory = folder()
        let before = try await understudy(["ca", "export", "--ca-dir", directory]).output
        let outcome = try await understudy(["ca", "reset", "--ca-dir", directory])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.text.contains(directory + "/understudy-ca.pem"))
        #expect(outcome.text.contains("no longer trusted") && outcome.text.contains("Servers started from now on sign with the new CA"))
        let after = try await understudy(["ca", "export", "--ca-dir", directory]).output
        #expect(!after.isEmpty && after != before)
    }

    @Test("`ca reset` refuses while a running server uses the CA, so no server signs with a CA devices were told to drop")
    func resetRefusedWhileServing() async throws {
        let directory = folder()
        let before = try await understudy(["ca", "export", "--ca-dir", directory]).output
        let port = try await SpawnedServer.freePort()
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        let server = try SpawnedProcess.start(
            Self.binary.path,
            ["serve", "--port", String(port), "--https-port", "0", "--ca-dir", directory, "--database", directory + "/db.sqlite"],
            environment: environment, directory: LogFormatTests.repository.path)
        #expect(try await SpawnedServer.waitUntilReady(port: port, process: server))
        let refused = try await understudy(["ca", "reset", "--ca-dir", directory])
        #expect(refused.status == 1 && refused.errors.contains("a running Understudy server uses the CA"), "\(refused.errors)")
        #expect(try await understudy(["ca", "export", "--ca-dir", directory]).output == before, "the CA was left alone")
        server.send(SIGTERM)
        #expect(await server.collected().ending == .exited(0))
        // Once it has stopped, the reset goes through.
        #expect(try await understudy(["ca", "reset", "--ca-dir", directory]).status == 0)
        #expect(try await understudy(["ca", "export", "--ca-dir", directory]).output != before)
    }

    @Test("`ca reset` replaces a damaged CA that `ca export` refuses with exit 1 and the file's name")
    func resetRepairs() async throws {
        let directory = folder()
        #expect(try await understudy(["ca", "path", "--ca-dir", directory]).status == 0)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: directory + "/understudy-ca.key"))
        let refused = try await understudy(["ca", "export", "--ca-dir", directory])
        #expect(refused.status == 1 && refused.output.isEmpty)
        #expect(refused.errors.contains("understudy-ca.key") && refused.errors.contains("understudy ca reset"))
        #expect(try await understudy(["ca", "reset", "--ca-dir", directory]).status == 0)
        #expect(try await understudy(["ca", "export", "--ca-dir", directory]).status == 0)
    }

    @Test("usage errors exit 2: no verb, an unknown verb, a bad format, export's flags on another verb, a missing value")
    func usageErrors() async throws {
        let directory = folder()
        for arguments in [
            ["ca"], ["ca", "explode"], ["ca", "--ca-dir", directory], ["ca", "export", "--format", "jpeg"],
            ["ca", "path", "--format", "der"], ["ca", "reset", "--output", "x"], ["ca", "export", "--output"],
            ["ca", "path", "--frobnicate"],
        ] {
            #expect(await UnderstudyCommand.main(["understudy"] + arguments + ["--ca-dir", directory], environment: [:]) == 2, "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory), "a usage error makes no CA")
        let outcome = try await understudy(["ca", "explode"])
        #expect(outcome.status == 2 && outcome.errors.contains("unknown `ca` verb") && outcome.errors.contains("ca export"))
    }

    @Test("DER to a terminal is refused with exit 2 and nothing written; PEM to a terminal is fine")
    func derToTerminal() async throws {
        let terminal = try #require(PseudoTerminal.open())
        defer { terminal.close() }
        #expect(isatty(terminal.follower.fileDescriptor) == 1)
        let directory = folder()
        #expect(
            CertificateAuthorityCommand.run(
                ["export", "--format", "der", "--ca-dir", directory], environment: [:],
                standardOutput: terminal.follower) == 2)
        #expect(!FileManager.default.fileExists(atPath: directory), "refused before any CA was made")
        #expect(CertificateAuthorityCommand.run(["export", "--ca-dir", directory], environment: [:], standardOutput: terminal.follower) == 0)
        // What reached the terminal is the PEM text.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = read(terminal.controller.fileDescriptor, &buffer, buffer.count)
        #expect(count > 0 && String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).contains("BEGIN CERTIFICATE"))
    }
}

/// A pseudo-terminal pair, so a test can hand the command a standard output that is a terminal.
private struct PseudoTerminal {
    /// The controlling side: what the "terminal" shows is read here.
    let controller: FileHandle
    /// The side a program writes to, as to its terminal.
    let follower: FileHandle

    static func open() -> PseudoTerminal? {
        #if canImport(Darwin)
        let (openpt, grant, unlock, name) = (posix_openpt, grantpt, unlockpt, ptsname)
        #else
        // Glibc's Swift module leaves out the XSI pty calls (they sit behind _XOPEN_SOURCE), so they
        // are looked up in the C library that is already loaded.
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Step = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let library = dlopen(nil, RTLD_NOW),
            let openSymbol = dlsym(library, "posix_openpt"), let grantSymbol = dlsym(library, "grantpt"),
            let unlockSymbol = dlsym(library, "unlockpt"), let nameSymbol = dlsym(library, "ptsname")
        else { return nil }
        let openpt = unsafeBitCast(openSymbol, to: Open.self), grant = unsafeBitCast(grantSymbol, to: Step.self)
        let unlock = unsafeBitCast(unlockSymbol, to: Step.self), name = unsafeBitCast(nameSymbol, to: Name.self)
        #endif
        let descriptor = openpt(O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        let controller = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard grant(descriptor) == 0, unlock(descriptor) == 0, let path = name(descriptor).map({ String(cString: $0) }),
            let follower = FileHandle(forUpdatingAtPath: path)
        else { return nil }
        return PseudoTerminal(controller: controller, follower: follower)
    }

    func close() {
        try? follower.close()
        try? controller.close()
    }
}
