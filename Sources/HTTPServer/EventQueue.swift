import Dispatch

/// A serial queue that owns a set of connections, plus the scratch read buffer they share.
///
/// Connections are spread over a few of these (one per core); everything a connection does
/// happens on its queue, so its state needs no locks.
final class EventQueue: @unchecked Sendable { // `readBuffer` is only touched on `queue`
    let queue: DispatchQueue
    let readBuffer: UnsafeMutableRawBufferPointer

    init(label: String, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
