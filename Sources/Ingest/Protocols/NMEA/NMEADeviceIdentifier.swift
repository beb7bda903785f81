/// Where NMEA trackers put their device identifier, read from a line's bytes.
///
/// Vendors wrap `$GPRMC` in their own ways: `<id>,$GPRMC...`, `<id>$GPRMC...`,
/// `%<imei>,$GPRMC...`, `<a>/<imei>/$GPRMC...`, `imei:<imei>rmc:$GPRMC...`,
/// `imei=<imei>&rmc=$GPRMC...`, `id=<id>&...$GPRMC...` and a trailing
/// `...,imei:<imei>,...`; some send a line holding only the identifier first.
enum NMEADeviceIdentifier {
    /// The device identifier around a sentence that starts at `sentenceStart`, if the line has one.
    static func around(sentenceAt sentenceStart: Int, in line: UnsafeRawBufferPointer) -> String? {
        if let value = value(after: "imei:", in: line) ?? value(after: "imei=", in: line) { return value }
        var start = 0
        var end = sentenceStart
        if end > start && line[end - 1] == UInt8(ascii: "$") { end -= 1 }
        if end > start && line[start] == UInt8(ascii: "%") { start += 1 }
        let prefix = line.bytes(start..<end)
        if let query = prefix.firstOffset(of: "id=") {
            let valueStart = query + 3
            let valueEnd = prefix.firstOffset(of: UInt8(ascii: "&"), from: valueStart) ?? prefix.count
            return prefix.bytes(valueStart..<valueEnd).text.nonEmpty
        }
        return lastToken(of: prefix)
    }

    /// The identifier of a line that only names the device: `<id>` or
    /// `imei:<id>` (also `imei=`, `%`, `$PGID,`, with an optional `*hh`),
    /// 1 to 64 letters, digits, `-` or `_`. Letters and digits of any script
    /// count, so this rare line (once per connection) is matched as text.
    static func alone(in line: UnsafeRawBufferPointer) -> String? {
        var start = 0
        for marker: StaticString in ["imei:", "imei=", "%", "$PGID,"] where line.hasPrefix(marker, at: start) {
            start += marker.utf8CodeUnitCount
        }
        let end = line.firstOffset(of: UInt8(ascii: "*"), from: start) ?? line.count
        let candidate = line.bytes(start..<end).text
        let allowed = candidate.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return allowed && (1...64).contains(candidate.count) ? candidate : nil
    }

    /// The letters and digits following `marker` (`imei:`): its leading
    /// digits when there are at least six (an IMEI glued to a word), else all of them.
    private static func value(after marker: StaticString, in line: UnsafeRawBufferPointer) -> String? {
        guard let markerStart = line.firstOffset(of: marker) else { return nil }
        let start = markerStart + marker.utf8CodeUnitCount
        var end = start
        var asciiOnly = true
        while end < line.count && (line[end] >= 0x80 || line[end].isASCIILetterOrDigit) {
            asciiOnly = asciiOnly && line[end] < 0x80
            end += 1
        }
        guard asciiOnly else { return unicodeValue(line.bytes(start..<end).text) }
        var digitsEnd = start
        while digitsEnd < end && ASCIINumber.digit(line[digitsEnd]) != nil { digitsEnd += 1 }
        return line.bytes(start..<(digitsEnd - start >= 6 ? digitsEnd : end)).text.nonEmpty
    }

    /// The same rule as `value(after:in:)` for a value holding letters or
    /// digits of other scripts, which only Character properties recognise.
    private static func unicodeValue(_ text: String) -> String? {
        let value = text.prefix { $0.isLetter || $0.isNumber }
        let digits = value.prefix { $0.isNumber }
        return String(digits.count >= 6 ? digits : value).nonEmpty
    }

    /// The last non-empty piece of `prefix` between `,` and `/` separators.
    private static func lastToken(of prefix: UnsafeRawBufferPointer) -> String? {
        func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ",") || byte == UInt8(ascii: "/") }
        var end = prefix.count
        while end > 0 && isSeparator(prefix[end - 1]) { end -= 1 }
        var start = end
        while start > 0 && !isSeparator(prefix[start - 1]) { start -= 1 }
        return prefix.bytes(start..<end).text.nonEmpty
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
