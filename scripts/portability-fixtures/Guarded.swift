// Linux-only calls, each inside a Linux-only branch: none of these lines may be flagged.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import CEpoll
#endif

// Mentions in comments do not count: epoll_wait, accept4, MSG_NOSIGNAL, import Glibc, "/proc/self".
/* Nor in block comments /* nested */ : SOCK_NONBLOCK, Glibc.close(fd) */

func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if os(Linux)
    return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
    #endif
}

func listen() -> Int32 {
    #if !os(Linux)
    return socket(AF_INET, SOCK_STREAM, 0)
    #else
    // The #else of a non-Linux condition is Linux-only.
    return socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    #endif
}

#if canImport(Darwin)
let threadKey = UInt(bitPattern: pthread_self())
#elseif canImport(Glibc)
let threadKey = UInt(pthread_self())
#endif

#if os(Linux) && arch(x86_64)
let events = cepoll_create() + Int32(EPOLL_CLOEXEC)
#endif

#if os(Linux)
func nested() -> String {
    #if DEBUG
    // Still inside the outer os(Linux) branch.
    let cores = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
    #endif
    var limit = rlimit()
    _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    pthread_setname_np(pthread_self(), "loop")
    return "accept4 MSG_NOSIGNAL epoll_wait in a string literal are only words" + (cores ?? "")
}
#endif

let words = """
    A multi-line string that mentions import Glibc, accept4 and epoll_ctl.
    """
let raw = #"and a raw one: Glibc.close(fd) "# + "\(words)"
