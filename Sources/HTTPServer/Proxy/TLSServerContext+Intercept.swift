extension TLSServerContext: InterceptTransportFactory {
    /// A TLS server transport for an intercepted tunnel: the certificate is the one minted for the
    /// client's SNI, and the ClientHello the client may have sent before our `200` is replayed.
    public func makeInterceptTransport(socket: Int32, prefix: [UInt8]) -> any ByteTransport {
        TLSTransport(socket: socket, context: self, prefix: prefix)
    }
}
