import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process run to its end with `posix_spawn` (Foundation's `Process` on Linux can crash
/// the test process while it lists descriptors), its stdout and stderr collected.
struct ChildProcess {
    /// How it ended: the exit status, or -1 when a signal ended it.
    let status: Int32
    /// Everything it wrote to stdout.
    let standard: String
    /// Everything it wrote to stderr.
    let error: String

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `path` with `arguments` and exactly `environment`, waiting for it to end.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> ChildProcess {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0 else { throw SpawnError(description: "pipe failed: errno \(errno)") }
        // Other tests spawn children meanwhile: our pipe ends must not leak into them, or EOF never comes.
        for descriptor in [output[0], output[1], errors[0], errors[1]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(output[1])
        close(errors[1])
        let standardHandle = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
        let errorHandle = FileHandle(fileDescriptor: errors[0], closeOnDealloc: true)
        guard spawned == 0 else { throw SpawnError(description: "posix_spawn \(path) failed: \(spawned)") }
        // stderr is drained on its own thread so a chatty child never blocks on a full pipe.
        let collected = CollectedOutput()
        let reader = Thread { collected.set(errorHandle.readDataToEndOfFile()) }
        reader.start()
        let standard = standardHandle.readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let error = collected.wait()
        let exit: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return ChildProcess(status: exit, standard: String(decoding: standard, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }
}

/// Bytes handed from a reader thread to the waiting test.
private final class CollectedOutput: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    func set(_ value: Data) { data = value; done.signal() }
    func wait() -> Data { done.wait(); return data }
}
