/// One whole GT06 frame found at the start of a stream, checked but not
/// yet read: where its content is, and what its ACK echoes.
struct GT06Frame {
    /// Bytes from the start mark through `0D 0A`.
    var length: Int
    /// A `79 79` frame (two length bytes) rather than `78 78`.
    var isLong: Bool
    var type: UInt8
    var serial: UInt16
    /// The bytes between the type and the serial.
    var content: Range<Int>
}

/// Finds GT06 frames in a byte stream: the start mark, the length field and
/// its limit, the `0D 0A` end and the CRC-16/X.25, with how to go on after
/// each kind of damage. Reading what a frame says is ``GT06Decoder``'s job.
enum GT06Framer {
    /// The longest frame accepted; real ones stay under a few hundred bytes.
    static let maxFrameLength = 2048

    /// The frame at the start of `bytes`; nil when only part of it has arrived.
    static func frame(in bytes: UnsafeRawBufferPointer) throws(FrameError) -> GT06Frame? {
        guard bytes.count >= 2 else { return nil }
        guard let isLong = headerForm(bytes, at: 0) else {
            let next = nextHeader(in: bytes, after: 0)
            throw FrameError(.garbage, "\(next) byte(s) before a 78 78 or 79 79 frame start", recovery: .skip(next))
        }
        let lengthWidth = isLong ? 2 : 1
        guard bytes.count >= 2 + lengthWidth else { return nil }
        let declared = isLong ? Int(bytes[2]) << 8 | Int(bytes[3]) : Int(bytes[2])
        let total = declared + 4 + lengthWidth
        guard declared >= 5 else {
            throw FrameError(.malformed, "length field \(declared) is shorter than type, serial and CRC", recovery: .skip(2))
        }
        guard total <= maxFrameLength else {
            throw FrameError(.oversized, "length field announces \(total) bytes, over the \(maxFrameLength) limit", recovery: .skip(2))
        }
        guard bytes.count >= total else { return nil }
        guard bytes[total - 2] == 0x0D, bytes[total - 1] == 0x0A else {
            throw FrameError(.malformed, "no 0D 0A at the end of the \(total)-byte frame", recovery: .skip(2))
        }
        let sent = UInt16(bytes[total - 4]) << 8 | UInt16(bytes[total - 3])
        let computed = CRC16.x25(UnsafeRawBufferPointer(rebasing: bytes[2..<(total - 4)]))
        guard sent == computed else {
            throw FrameError(.badChecksum, "CRC \(sent.hexText) but the frame's bytes give \(computed.hexText)", recovery: .skip(total))
        }
        let typeOffset = 2 + lengthWidth
        return GT06Frame(
            length: total, isLong: isLong, type: bytes[typeOffset],
            serial: UInt16(bytes[total - 6]) << 8 | UInt16(bytes[total - 5]), content: (typeOffset + 1)..<(total - 6))
    }

    /// True for a long (79 79), false for a short (78 78) frame start at `offset`, nil otherwise.
    static func headerForm(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool? {
        switch (bytes[offset], bytes[offset + 1]) {
        case (0x78, 0x78): false
        case (0x79, 0x79): true
        default: nil
        }
    }

    /// Offset of the next possible frame start after `offset`, or the count
    /// of bytes that can be dropped (keeping a last byte that may begin one).
    static func nextHeader(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int {
        var index = offset + 1
        while index + 1 < bytes.count {
            if headerForm(bytes, at: index) != nil { return index }
            index += 1
        }
        return max(offset + 1, bytes.count - 1)
    }
}
