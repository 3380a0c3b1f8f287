import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, its stdout and stderr on pipes. Foundation's
/// `Process.run()` on Linux over-reads a `dirent` while it lists `/proc/self/fd` and crashes the
/// test process now and then (swift-corelibs-foundation PR #5472), more often the more descriptors
/// the process holds, as a suite full of live servers does; spawning directly avoids that code.
struct SpawnedProcess {
    let pid: pid_t
    /// The child's standard output.
    let standard: FileHandle
    /// The child's standard error.
    let error: FileHandle

    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `path` with `arguments` and exactly `environment`.
    static func start(_ path: String, _ arguments: [String], environment: [String: String]) throws -> SpawnedProcess {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0 else { throw SpawnError(description: "pipe failed: errno \(errno)") }
        // The parent's ends must not leak into children other tests spawn meanwhile, or their EOF never comes.
        for descriptor in [output[0], output[1], errors[0], errors[1]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
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
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(output[1])
        close(errors[1])
        guard status == 0 else {
            close(output[0])
            close(errors[0])
            throw SpawnError(description: "posix_spawn \(path) failed: \(status)")
        }
        return SpawnedProcess(pid: pid, standard: FileHandle(fileDescriptor: output[0], closeOnDealloc: true),
                              error: FileHandle(fileDescriptor: errors[0], closeOnDealloc: true))
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// How the child ended.
    enum Ending: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// Waits for the child to end (blocking the calling thread).
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // The wait(2) status layout: low 7 bits the signal, else the exit status in the next byte.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
