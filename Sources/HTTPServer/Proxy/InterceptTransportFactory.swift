/// Makes the TLS server transport of a tunnel the proxy intercepts: over the client's socket, which
/// is already connected, with the bytes the client sent before our `200` (often its ClientHello)
/// replayed first.
public protocol InterceptTransportFactory: Sendable {
    /// Wraps `socket` (the transport owns it from now on); `prefix` is read before the socket.
    func makeInterceptTransport(socket: Int32, prefix: [UInt8]) -> any ByteTransport
}
