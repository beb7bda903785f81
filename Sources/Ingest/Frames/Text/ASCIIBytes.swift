/// Searching and trimming ASCII text in a frame's bytes, in place.
///
/// Text decoders look for markers (`GPRMC,`, `imei:`) and cut fields out of
/// a line without decoding it into a String; these are the few operations
/// they need, on raw bytes and static ASCII patterns.
extension UnsafeRawBufferPointer {
    /// The bytes of `range`, without copying.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[range])
    }

    /// The offset where `pattern` first occurs at or after `start`, if it does.
    func firstOffset(of pattern: StaticString, from start: Int = 0) -> Int? {
        let length = pattern.utf8CodeUnitCount
        guard length > 0, count - start >= length else { return nil }
        let first = pattern.utf8Start[0]
        var offset = start
        while offset <= count - length {
            if self[offset] == first && hasPrefix(pattern, at: offset) { return offset }
            offset += 1
        }
        return nil
    }

    /// True when the bytes from `offset` on start with `pattern`.
    func hasPrefix(_ pattern: StaticString, at offset: Int = 0) -> Bool {
        let length = pattern.utf8CodeUnitCount
        guard offset >= 0, count - offset >= length else { return false }
        for index in 0..<length where self[offset + index] != pattern.utf8Start[index] { return false }
        return true
    }

    /// The offset of the first `byte` at or after `start`, if any.
    func firstOffset(of byte: UInt8, from start: Int = 0) -> Int? {
        var offset = start
        while offset < count {
            if self[offset] == byte { return offset }
            offset += 1
        }
        return nil
    }

    /// These bytes without ASCII whitespace (space, tab, CR, LF, VT, FF) at either end.
    func trimmingASCIIWhitespace() -> UnsafeRawBufferPointer {
        var start = 0
        var end = count
        while start < end && self[start].isASCIIWhitespace { start += 1 }
        while end > start && self[end - 1].isASCIIWhitespace { end -= 1 }
        return bytes(start..<end)
    }

    /// The bytes as text, invalid UTF-8 replaced by U+FFFD; for identifiers and error messages.
    var text: String { String(decoding: self, as: UTF8.self) }
}

extension UInt8 {
    /// Space, tab, line feed, vertical tab, form feed or carriage return.
    var isASCIIWhitespace: Bool { self == UInt8(ascii: " ") || (0x09...0x0D).contains(self) }

    /// An ASCII letter or decimal digit.
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }
}
