import Foundation
import Synchronization

/// What a platform says about one of its SDK requests, for the integration checks: which app
/// installation (or user) it concerns and anything its rules need that the core cannot read
/// from the request itself. Made by the route group's `observe` step after the answer is final,
/// so it also covers answers a fault replaced.
public struct Observation: Sendable, Equatable {
    /// The app installation the request concerns, in the platform's own terms (a registered
    /// product's identifier, a device id, an item); nil when the request names none, which keeps
    /// it out of every rule that compares one installation's requests.
    public var device: String?
    /// Facts for the platform's rules (a hash the handler computed, an id it found), by name.
    public var facts: [String: String]
    /// Whether the SDK retries this request itself on a documented schedule of its own (a device
    /// registration, an upload): such retries follow that schedule, not `Retry-After`.
    public var retriedBySDK: Bool

    /// Creates an observation.
    public init(device: String?, facts: [String: String] = [:], retriedBySDK: Bool = false) {
        self.device = device
        self.facts = facts
        self.retriedBySDK = retriedBySDK
    }
}

/// Facts a handler learnt while answering (an upload that repeats an earlier one, the device an
/// item belongs to), handed to its route group's `observe` step. One per SDK request while the
/// checks are on; handlers write it through `EmulatorContext.note(_:_:)`, possibly from inside a
/// database closure on another thread, hence the lock.
public final class ObservationNotes: Sendable {
    private let facts = Mutex<[String: String]>([:])

    /// An empty set of notes.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init() {}

    /// Records `value` under `name`, replacing an earlier one.
    public func set(_ name: String, _ value: String) { facts.withLock { $0[name] = value } }

    /// Everything recorded.
    public var all: [String: String] { facts.withLock { $0 } }
}

extension EmulatorContext {
    /// Records a fact for the integration checks (nothing when they are off): see `ObservationNotes`.
    public func note(_ name: String, _ value: String) { notes?.set(name, value) }

    /// The facts handlers recorded for this request so far (empty when the checks are off).
    public var noted: [String: String] { notes?.all ?? [:] }
}
