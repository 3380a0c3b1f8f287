import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Child processes for the test suites, started with `posix_spawn`. Foundation's `Process.run()`
// on Linux lists `/proc/self/fd` with its own `getdents64` loop and over-reads an entry now and
// then (swift-corelibs-foundation PR #5472); the more descriptors the test process holds (a
// suite full of live servers holds over a thousand), the likelier it segfaults the whole run.
// No test may use `Process`; these two types are the only way tests start programs.

/// A running child process, its stdout and stderr on pipes.
public struct SpawnedProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// The child's standard output.
    public let standard: FileHandle
    /// The child's standard error.
    public let error: FileHandle

    /// A spawn that did not happen (pipe or posix_spawn failure).
    public struct SpawnError: Error, CustomStringConvertible {
        /// What failed, with its error number.
        public let description: String
    }

    /// Starts `path` with `arguments` and exactly `environment`, in `directory` when given (the
    /// test process's own working directory otherwise).
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil
    ) throws -> SpawnedProcess {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw SpawnError(description: "pipe failed: errno \(errno)") }
        guard pipe(&errors) == 0 else {
            close(output[0]); close(output[1])
            throw SpawnError(description: "pipe failed: errno \(errno)")
        }
        // Other tests spawn children meanwhile: these ends must not leak into them, or EOF never comes.
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the child's 1 and 2; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Nothing else of this process may reach the child: sockets the suites open without
        // close-on-exec would stay open in it, so a test closing (or resetting) its end would never
        // be seen by the peer until the child exited.
        #if os(Linux)
        // glibc 2.34's posix_spawn_file_actions_addclosefrom_np is not in Swift's Glibc module.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            for descriptor in output + errors { close(descriptor) }
            throw SpawnError(description: "this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        #else
        var attributes: posix_spawnattr_t?
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)) // only the file actions' descriptors are inherited
        #endif
        defer { posix_spawnattr_destroy(&attributes) }
        // posix_spawn_file_actions_addchdir_np is not in Swift's Glibc module: a shell changes
        // directory, then `exec` replaces it, so the pid is still the program's own.
        let command = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, path] } ?? [path]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            throw SpawnError(description: "posix_spawn \(path) failed: \(status)")
        }
        return SpawnedProcess(
            pid: pid, standard: FileHandle(fileDescriptor: output[0], closeOnDealloc: true),
            error: FileHandle(fileDescriptor: errors[0], closeOnDealloc: true))
    }

    /// Sends `signal` to the child.
    public func send(_ signal: Int32) { kill(pid, signal) }

    /// Whether the child has not ended yet (it is not reaped: `wait()` still reports how it ended).
    public var isRunning: Bool {
        var info = siginfo_t()
        // WNOWAIT leaves the child waitable; a zero pid in the result means it is still running.
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && childPID(of: info) == 0
    }

    /// How a child ended.
    public enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit status, or -1 when a signal ended it.
        public var status: Int32 {
            if case .exited(let status) = self { return status }
            return -1
        }
    }

    /// Waits for the child to end (blocking the calling thread).
    public func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // The wait(2) status layout: low 7 bits the signal, else the exit status in the next byte.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Reads stdout and stderr to their ends at the same time (a chatty child never blocks on a
    /// full pipe), then waits for the child.
    public func collect() -> ChildProcess {
        let collected = CollectedOutput()
        let reader = Thread { collected.set(error.readDataToEndOfFile()) }
        reader.start()
        let standardData = standard.readDataToEndOfFile()
        let ending = wait()
        let errorData = collected.wait()
        return ChildProcess(ending: ending, standardData: standardData, errorData: errorData)
    }
}

/// The pid field of a `siginfo_t` filled by `waitid`.
private func childPID(of info: siginfo_t) -> pid_t {
    #if canImport(Glibc)
    return info._sifields._sigchld.si_pid
    #else
    return info.si_pid
    #endif
}

/// A child process run to its end, its output collected.
public struct ChildProcess: Sendable {
    /// How it ended.
    public let ending: SpawnedProcess.Ending
    /// Everything it wrote to stdout.
    public let standardData: Data
    /// Everything it wrote to stderr.
    public let errorData: Data

    /// The exit status, or -1 when a signal ended it.
    public var status: Int32 { ending.status }
    /// Its stdout as text.
    public var standard: String { String(decoding: standardData, as: UTF8.self) }
    /// Its stderr as text.
    public var error: String { String(decoding: errorData, as: UTF8.self) }

    /// Runs `path` with `arguments` and exactly `environment` (in `directory` when given), waiting
    /// for it to end.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil
    ) throws -> ChildProcess {
        try SpawnedProcess.start(path, arguments, environment: environment, directory: directory).collect()
    }
}

/// Bytes handed from a reader thread to the waiting test.
private final class CollectedOutput: @unchecked Sendable { // written once before `done` signals, read after
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func set(_ value: Data) { data = value; done.signal() }
    func wait() -> Data { done.wait(); return data }
}

extension SpawnedProcess {
    /// `collect()` on a thread of its own. An async test must never wait for a child on one of the
    /// concurrency pool's threads: there are as many as cores (two here), and a blocked one stalls
    /// every other test in the process, whose requests then time out.
    public func collected() async -> ChildProcess {
        await withCheckedContinuation { continuation in Thread { continuation.resume(returning: collect()) }.start() }
    }
}

extension ChildProcess {
    /// `run` on a thread of its own, for async tests (see `SpawnedProcess.collected()`).
    public static func running(
        _ path: String, _ arguments: [String], environment: [String: String],
        directory: String? = nil
    ) async throws -> ChildProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try run(path, arguments, environment: environment, directory: directory) }) }.start()
        }
    }
}
