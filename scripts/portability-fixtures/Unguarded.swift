// Linux-only calls outside Linux-only branches: each line marked `flagged` must be reported.
import Foundation
import Glibc // flagged
import FoundationNetworking // flagged

func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    Glibc.send(fd, bytes.baseAddress, bytes.count, 0) // flagged
}

func listen() -> Int32 {
    #if os(Linux)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    // The #else of os(Linux) is everything but Linux.
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) // flagged
    #endif
    return fd
}

#if canImport(FoundationNetworking)
// canImport(FoundationNetworking) guards that import, nothing else (it is true on Windows too).
let loop = cepoll_create() // flagged
#endif

#if os(Linux) || os(Android)
let reuse = SO_REUSEPORT // flagged
#endif

#if canImport(Darwin)
let one = 1
#elseif os(Windows)
let flags = Int32(MSG_NOSIGNAL) // flagged
#endif

let threadKey = UInt(pthread_self()) // flagged
let accepted = accept4(3, nil, nil, 0) // flagged
let statusPath = "/proc/self/status" // flagged
var timeout = timeval(tv_sec: 1, tv_usec: Int(0)) // flagged

func name() {
    pthread_setname_np(pthread_self(), "loop") // flagged
    pthread_setname_np("loop")
}

#if DEBUG
let wake = eventfd(0, 0) // flagged
#endif
