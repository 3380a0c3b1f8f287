/// The turn of work a write is made in — an event loop's pass over the handlers queued on it —
/// so that the writes of one turn share one transaction, committed when the turn ends.
///
/// Requests that arrive together are handled in one pass of their loop: committing each write on
/// its own rewrote the same table and index pages into the log once per request, and paid the
/// transaction's locks each time. Callers are still answered only after the commit.
public struct WriteTurn: Sendable {
    /// Identifies who takes the turns (one value per event loop, for its whole life).
    public var owner: ObjectIdentifier
    /// Whether other work of the turn is still to run (and may write): when not, a write runs at once.
    public var othersMayWrite: Bool
    /// Runs work after the rest of the turn, on whoever takes the turns.
    public var atEnd: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// A turn of `owner`'s.
    public init(owner: ObjectIdentifier, othersMayWrite: Bool, atEnd: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.owner = owner
        self.othersMayWrite = othersMayWrite
        self.atEnd = atEnd
    }
}
