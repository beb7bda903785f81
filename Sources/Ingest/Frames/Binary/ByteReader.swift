/// Reads big-endian integers from a frame's bytes, never past its end.
///
/// Binary decoders (GT06, Teltonika) read a frame field by field; a read
/// past the end throws an error naming the field and offset, with the
/// recovery the decoder chose for this frame, instead of trapping.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    /// Offset of the next byte to read.
    private(set) var offset: Int
    /// Where reading stops: the end of the current frame.
    let end: Int
    /// What the connection does when this frame turns out to be short.
    let recovery: FrameError.Recovery

    init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil, recovery: FrameError.Recovery) {
        self.bytes = bytes
        self.offset = start
        self.end = min(end ?? bytes.count, bytes.count)
        self.recovery = recovery
    }

    /// Bytes left before the end.
    var remaining: Int { end - offset }

    /// Fails unless `count` more bytes are there for `field`.
    func require(_ count: Int, for field: StaticString) throws(FrameError) {
        guard count >= 0, remaining >= count else {
            throw FrameError(
                .malformed, "frame ends at byte \(end) while reading \(field) (\(count) byte(s) at offset \(offset))",
                recovery: recovery)
        }
    }

    mutating func uint8(_ field: StaticString) throws(FrameError) -> UInt8 {
        try require(1, for: field)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ field: StaticString) throws(FrameError) -> UInt16 {
        UInt16(truncatingIfNeeded: try unsigned(2, field))
    }

    mutating func uint32(_ field: StaticString) throws(FrameError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(4, field))
    }

    mutating func uint64(_ field: StaticString) throws(FrameError) -> UInt64 {
        try unsigned(8, field)
    }

    /// A big-endian unsigned integer of `width` bytes (1...8).
    @inline(__always)
    mutating func unsigned(_ width: Int, _ field: StaticString) throws(FrameError) -> UInt64 {
        try require(width, for: field)
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }

    /// Moves past `count` bytes of `field`.
    mutating func skip(_ count: Int, _ field: StaticString) throws(FrameError) {
        try require(count, for: field)
        offset += count
    }

    /// The next `count` bytes of `field`, without copying.
    mutating func slice(_ count: Int, _ field: StaticString) throws(FrameError) -> UnsafeRawBufferPointer {
        try require(count, for: field)
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }
}
