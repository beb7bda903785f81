/// Finds where the first line of a text protocol's stream buffer ends.
///
/// The line and NMEA decoders frame their streams the same way: a frame is
/// everything up to and including `\n`, and a connection that sends
/// `maxLength` bytes without one is closed, as it can only be garbage or an
/// attack on memory.
enum TextLine {
    /// The offset of the first `\n` in `bytes`; nil while the line is still
    /// incomplete; throws (closing the connection) when no line end comes
    /// within `maxLength` bytes.
    static func end(in bytes: UnsafeRawBufferPointer, maxLength: Int) throws(FrameError) -> Int? {
        let limit = min(bytes.count, maxLength)
        guard let newline = (0..<limit).first(where: { bytes[$0] == UInt8(ascii: "\n") }) else {
            if bytes.count >= maxLength {
                throw FrameError(.oversized, "no line end within \(maxLength) bytes", recovery: .closeConnection)
            }
            return nil
        }
        return newline
    }
}
