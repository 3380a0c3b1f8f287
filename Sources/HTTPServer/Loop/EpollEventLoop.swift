#if os(Linux)
import Glibc
import CEpoll
import Foundation
import Synchronization

/// An epoll loop on a thread of its own that owns a set of connections: it reads, parses, runs
/// their handlers (it is the task executor they prefer) and writes, all on one thread.
///
/// Measured against Dispatch read sources, which cost two thread wake-ups per request (Dispatch's
/// manager thread, then a worker): here a keep-alive request is one `epoll_wait` wake-up, and a
/// handler that awaits nothing runs to completion without leaving the thread.
final class EpollEventLoop: EventLoop, @unchecked Sendable {
    // Confined to the loop thread: `connections`, `unwatched`, `listeners`, `local`, `readBuffer`, `nextSweep`.
    // Shared: `inbox` (behind its Mutex), `stopped` and `watched`.
    private enum Work: @unchecked Sendable { // UnownedJob is a token the runtime hands out for exactly this use
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct Inbox: ~Copyable {
        var work: [Work] = []
        var sleeping = false
    }

    private let index: Int
    let readBuffer: UnsafeMutableRawBufferPointer
    private let epollFD: Int32
    private let wakeFD: Int32
    private let inbox = Mutex(Inbox())
    private let stopped = Atomic<Bool>(false)
    private let threadID = Atomic<UInt>(0) // pthread_t of the loop thread; 0 until it starts
    private var local: [Work] = []
    private var running: [Work] = [] // the pass `drainWork` is in, and how far it got
    private var runningNext = 0
    private var connections: [Int32: Connection] = [:]
    private var unwatched: Set<Int32> = [] // connections taken out of epoll until they want something
    private let watched = Atomic<Int>(0)
    private let slowStretches = Atomic<Int>(0)
    private let verySlowStretches = Atomic<Int>(0)
    private let longestStretch = Atomic<Int>(0)
    private var listeners: [Int32: () -> Void] = [:]
    private var pausedListeners: [Int32: UInt64] = [:] // fd → when accepting resumes
    private var sweepNanoseconds: UInt64 = 250_000_000
    private var nextSweep: UInt64 = 0

    private static let wakeToken: UInt64 = UInt64.max
    private static let listenerFlag: UInt64 = 1 << 40 // tokens of listening sockets: fd | flag

    /// epoll.
    var kind: EventLoopKind { .epoll }

    init(index: Int, readBufferSize: Int = 64 * 1024) {
        self.index = index
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        epollFD = cepoll_create()
        wakeFD = cepoll_eventfd()
        _ = cepoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, cepoll_in(), Self.wakeToken)
        let thread = Thread { [self] in self.run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        readBuffer.deallocate()
        close(epollFD)
        close(wakeFD)
    }

    // MARK: - Scheduling work

    /// Whether the caller is running on this loop's thread.
    var inLoop: Bool {
        let id = threadID.load(ordering: .acquiring)
        return id != 0 && pthread_equal(pthread_self(), pthread_t(id)) != 0
    }

    /// The loop whose thread runs the caller, if any.
    static var current: EpollEventLoop? {
        guard let pointer = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<EpollEventLoop>.fromOpaque(pointer).takeUnretainedValue() // the thread's own closure keeps its loop alive
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the pass under way has more to run, or work was queued from the loop for the next
    /// one. Work queued by other threads is not counted (it runs in the next pass either way).
    var hasQueuedWork: Bool { runningNext < running.count || !local.isEmpty }

    /// Runs `work` on the loop thread (soon, in order).
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    /// Runs a job of a handler task on the loop thread.
    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    private func submit(_ work: Work) {
        if inLoop {
            local.append(work) // no lock and no wake-up: the loop drains `local` before it sleeps
            return
        }
        let wake = inbox.withLock { inbox -> Bool in
            inbox.work.append(work)
            return inbox.sleeping
        }
        if wake { signalWake() }
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Asks the thread to exit once its work is done; the loop is unusable afterwards.
    func stop() {
        stopped.store(true, ordering: .releasing)
        signalWake()
    }

    // MARK: - Registration (loop thread only)

    func register(_ connection: Connection, sweepInterval: Double) {
        connections[connection.fileDescriptor] = connection
        sweepNanoseconds = ConnectionConfiguration.nanoseconds(max(0.005, min(0.25, sweepInterval)))
        _ = cepoll_ctl(epollFD, EPOLL_CTL_ADD, connection.fileDescriptor, cepoll_in() | cepoll_rdhup(), UInt64(connection.fileDescriptor))
        watched.add(1, ordering: .relaxed)
    }

    /// Changes which readiness a connection waits for. With neither, the socket leaves epoll
    /// altogether: epoll reports EPOLLHUP/EPOLLERR even for an empty event set, and level-triggered,
    /// so a peer that reset while its handler runs would otherwise wake the loop without end.
    func watch(_ connection: Connection, read: Bool, write: Bool) {
        let fd = connection.fileDescriptor
        var events: UInt32 = 0
        if read { events |= cepoll_in() | cepoll_rdhup() }
        if write { events |= cepoll_out() }
        if events == 0 {
            if unwatched.insert(fd).inserted {
                _ = cepoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
                watched.subtract(1, ordering: .relaxed)
            }
        } else if unwatched.remove(fd) != nil {
            _ = cepoll_ctl(epollFD, EPOLL_CTL_ADD, fd, events, UInt64(fd))
            watched.add(1, ordering: .relaxed)
        } else {
            _ = cepoll_ctl(epollFD, EPOLL_CTL_MOD, fd, events, UInt64(fd))
        }
    }

    /// Stops watching a connection and releases (closes) its descriptor at once: epoll forgets it on DEL.
    func unregister(_ connection: Connection, then release: @escaping () -> Void) {
        let fd = connection.fileDescriptor
        if unwatched.remove(fd) == nil {
            _ = cepoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
            watched.subtract(1, ordering: .relaxed)
        }
        connections.removeValue(forKey: fd)
        release()
    }

    /// Connections this loop has in epoll right now.
    var watchedCount: Int { watched.load(ordering: .relaxed) }

    /// Counted by the loop thread after each stretch (`noteBusy`).
    var busyStretches: LoopBusyStretches? {
        var stretches = LoopBusyStretches()
        stretches.slow = slowStretches.load(ordering: .relaxed)
        stretches.verySlow = verySlowStretches.load(ordering: .relaxed)
        stretches.longestNanoseconds = longestStretch.load(ordering: .relaxed)
        return stretches
    }

    /// Counts one busy stretch (loop thread only: the one writer of these atomics).
    private func noteBusy(_ nanoseconds: UInt64) {
        let stretch = Int(clamping: nanoseconds)
        if stretch > longestStretch.load(ordering: .relaxed) { longestStretch.store(stretch, ordering: .relaxed) }
        guard nanoseconds >= LoopBusyStretches.slowNanoseconds else { return }
        slowStretches.add(1, ordering: .relaxed)
        if nanoseconds >= LoopBusyStretches.verySlowNanoseconds { verySlowStretches.add(1, ordering: .relaxed) }
    }

    /// Watches a listening socket; `handler` runs on the loop when it is readable.
    func registerListener(_ fd: Int32, handler: @escaping () -> Void) {
        listeners[fd] = handler
        _ = cepoll_ctl(epollFD, EPOLL_CTL_ADD, fd, cepoll_in(), UInt64(fd) | Self.listenerFlag)
    }

    /// Stops watching and closes every listening socket.
    func closeListeners() {
        for fd in listeners.keys {
            if pausedListeners[fd] == nil { _ = cepoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0) }
            close(fd)
        }
        listeners = [:]
        pausedListeners = [:]
    }

    /// Stops watching a listener for `nanoseconds` (accept ran out of descriptors); the loop
    /// watches it again, and tries to accept, once the time is up.
    func pauseListener(_ fd: Int32, for nanoseconds: UInt64) {
        guard listeners[fd] != nil, pausedListeners[fd] == nil else { return }
        _ = cepoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0)
        pausedListeners[fd] = MonotonicClock.nanoseconds() + nanoseconds
    }

    private func resumeListenersIfDue(now: UInt64) {
        for (fd, resumesAt) in pausedListeners where resumesAt <= now {
            pausedListeners[fd] = nil
            guard let handler = listeners[fd] else { continue }
            _ = cepoll_ctl(epollFD, EPOLL_CTL_ADD, fd, cepoll_in(), UInt64(fd) | Self.listenerFlag)
            handler()
        }
    }

    /// Every connection this loop owns (loop thread only).
    var ownedConnections: [Connection] { Array(connections.values) }

    // MARK: - The loop

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        // Foundation's `Thread.name` never reaches the kernel here, so the loop showed its
        // creator's name ("oot.default-qos") in top, perf and /proc. Linux keeps 15 bytes.
        cepoll_name_thread("http-loop-\(index)")
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        var events = [cepoll_event](repeating: cepoll_event(), count: 256)
        nextSweep = MonotonicClock.nanoseconds() + sweepNanoseconds
        var wokeAt = MonotonicClock.nanoseconds()
        while true {
            drainWork()
            if stopped.load(ordering: .acquiring) && inbox.withLock({ $0.work.isEmpty }) { break }
            let now = MonotonicClock.nanoseconds()
            noteBusy(now &- wokeAt)
            let wakeAt = min(nextSweep, pausedListeners.values.min() ?? .max)
            var timeout = Int32(clamping: wakeAt > now ? (wakeAt - now) / 1_000_000 + 1 : 0)
            let mustNotSleep = inbox.withLock { inbox -> Bool in
                if !inbox.work.isEmpty { return true }
                inbox.sleeping = true
                return false
            }
            if mustNotSleep || !local.isEmpty { timeout = 0 }
            let count = events.withUnsafeMutableBufferPointer { cepoll_wait(epollFD, $0.baseAddress, 256, timeout) }
            wokeAt = MonotonicClock.nanoseconds()
            inbox.withLock { $0.sleeping = false }
            if count > 0 {
                for index in 0..<Int(count) {
                    let event = events[index]
                    switch event.token {
                    case Self.wakeToken:
                        var value: UInt64 = 0
                        _ = read(wakeFD, &value, 8)
                    case let token where token & Self.listenerFlag != 0:
                        listeners[Int32(truncatingIfNeeded: token & ~Self.listenerFlag)]?()
                    default:
                        guard let connection = connections[Int32(truncatingIfNeeded: event.token)] else { continue }
                        if event.events & cepoll_out() != 0 { connection.writable() }
                        let hangUp = event.events & (cepoll_hup() | cepoll_err()) != 0
                        if event.events & (cepoll_in() | cepoll_rdhup()) != 0 || hangUp { connection.readable(hangUp: hangUp) }
                    }
                }
            }
            let after = MonotonicClock.nanoseconds()
            resumeListenersIfDue(now: after)
            if after >= nextSweep {
                sweep(now: after)
                nextSweep = after + sweepNanoseconds
            }
        }
    }

    private func drainWork() {
        while true {
            swap(&running, &local) // `local` takes the emptied buffer: no allocation per pass
            running += inbox.withLock { inbox -> [Work] in
                defer { inbox.work.removeAll(keepingCapacity: true) }
                return inbox.work
            }
            if running.isEmpty { return }
            runningNext = 0
            while runningNext < running.count {
                let work = running[runningNext]
                runningNext += 1
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                case .closure(let closure): closure()
                }
            }
            running.removeAll(keepingCapacity: true)
            runningNext = 0
        }
    }

    private func sweep(now: UInt64) {
        guard !connections.isEmpty else { return }
        for connection in Array(connections.values) { // a copy: closing unregisters
            if let deadline = connection.deadline, deadline <= now { connection.tick(now: now) }
        }
    }
}
#endif
