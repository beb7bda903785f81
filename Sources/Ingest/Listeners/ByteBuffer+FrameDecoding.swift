import NIOCore

extension ByteBuffer {
    /// Runs a decoder over the readable bytes, its outcome as a `Result`
    /// that keeps the `FrameError` type: `withUnsafeReadableBytes` rethrows
    /// untyped, which would leave the listeners a cast where a switch belongs.
    func decodeReadableBytes<Decoded>(
        _ decode: (UnsafeRawBufferPointer) throws(FrameError) -> Decoded
    ) -> Result<Decoded, FrameError> {
        withUnsafeReadableBytes { raw in Result { () throws(FrameError) in try decode(raw) } }
    }
}
