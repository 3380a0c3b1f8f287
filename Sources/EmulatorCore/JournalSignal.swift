import Dispatch
import Synchronization

/// Wakes journal waits when an entry they may match is recorded, so an idle wait (a long poll, a
/// `requests/wait`) costs one parked continuation and one timer instead of a wake-up every few
/// milliseconds: 100 idle long polls used to keep 0.94 of a core busy polling.
///
/// Waits are keyed by project so a request wakes only the waits that could match it (and the
/// waits over every project). A wake is a hint, never a result: the woken wait queries again.
final class JournalSignal: Sendable {
    /// Why a parked wait resumed.
    enum Outcome: Sendable, Equatable {
        /// Something was recorded since the generation the wait started from.
        case announced
        /// The deadline passed.
        case timedOut
        /// The server is shutting down (`end()`).
        case ended
        /// The waiting task was cancelled.
        case cancelled
    }

    private struct Waiter {
        /// nil: a wait over every project's entries, woken by any.
        let project: ProjectID?
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State {
        var generation = 0
        var ended = false
        var nextToken: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        /// Tokens whose task was cancelled before their continuation was parked.
        var cancelledEarly: Set<UInt64> = []
        /// Whether a watcher polls a shared table for other instances' entries (`wait`'s `startWatcher`).
        var watching = false
    }

    private let state = Mutex(State())
    /// Deadlines fire here; the blocks only resume continuations, never block.
    private let timers = DispatchQueue(label: "understudy.journal.waits")

    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    init() {}

    /// Counts announcements; a wait passes the value it saw before its query to `wait(after:…)`.
    var generation: Int { state.withLock { $0.generation } }

    /// Waits parked now (read by the metrics).
    var parked: Int { state.withLock { $0.waiters.count } }

    /// Something for `project` (nil: for no project) was recorded: the waits on that project and
    /// the waits over every project resume and look again.
    func announce(project: ProjectID?) {
        resume(outcome: .announced) { waiter in waiter.project == nil || waiter.project == project }
    }

    /// Something was recorded that may concern any project (another instance's entries).
    func announceAll() {
        resume(outcome: .announced) { _ in true }
    }

    /// Resumes every wait now and every later one at once: the server is shutting down.
    func end() {
        let woken = state.withLock { state -> [Waiter] in
            state.ended = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.continuation.resume(returning: .ended) }
    }

    /// Parks until something is announced after `generation` for `project` (nil: any project), the
    /// deadline passes, the server ends its waits, or the task is cancelled. Returns at once when
    /// an announcement came after `generation` already.
    ///
    /// With `startWatcher` (a shared table's), the wait that parks while no watcher runs calls it,
    /// once parked: claiming the watcher and parking under one lock, against the watcher's own
    /// idle check under that lock, leaves no parked wait without a watcher.
    func wait(after generation: Int, project: ProjectID?, deadline: DispatchTime, startWatcher: (@Sendable () -> Void)? = nil) async -> Outcome {
        let token = state.withLock { state -> UInt64 in
            state.nextToken &+= 1
            return state.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let (immediate, starts) = state.withLock { state -> (Outcome?, Bool) in
                    if state.cancelledEarly.remove(token) != nil { return (.cancelled, false) }
                    if state.ended { return (.ended, false) }
                    if state.generation != generation { return (.announced, false) }
                    state.waiters[token] = Waiter(project: project, continuation: continuation)
                    guard startWatcher != nil, !state.watching else { return (nil, false) }
                    state.watching = true
                    return (nil, true)
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                timers.asyncAfter(deadline: deadline) { [self] in resume(token: token, outcome: .timedOut) }
                if starts { startWatcher?() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: token) else {
                    state.cancelledEarly.insert(token)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    /// Ends the watcher's claim when no wait is parked (true: it should stop). Checked and released
    /// under one lock, so a wait parked later finds no watcher and starts a new one.
    func releaseWatcherIfIdle() -> Bool {
        state.withLock { state in
            guard state.waiters.isEmpty || state.ended else { return false }
            state.watching = false
            return true
        }
    }

    private func resume(token: UInt64, outcome: Outcome) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: token) }
        waiter?.continuation.resume(returning: outcome)
    }

    private func resume(outcome: Outcome, where matches: (Waiter) -> Bool) {
        let woken = state.withLock { state -> [Waiter] in
            state.generation &+= 1
            guard !state.waiters.isEmpty else { return [] }
            var woken: [Waiter] = []
            for (token, waiter) in state.waiters where matches(waiter) {
                woken.append(waiter)
                state.waiters.removeValue(forKey: token)
            }
            return woken
        }
        for waiter in woken { waiter.continuation.resume(returning: outcome) }
    }
}
