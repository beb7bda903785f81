import Foundation

/// Appends JSON to a byte buffer by hand, in the shapes `JSONEncoder` gives
/// the dispatch log's values (dates in milliseconds since 1970, a
/// `Duration` as `[high, low]` of its attoseconds), so that `JSONDecoder`
/// reads what it writes. The log's writer thread encodes
/// every command with it: `JSONEncoder` builds a tree of boxed values per
/// entry, which cost more than the SQLite insert itself. The API writes
/// the fleet's positions with it too, for the same reason.
public struct JSONWriter {
    /// The document so far in its first `count` bytes; the rest is room
    /// reserved up front, written through a pointer rather than appended
    /// byte by byte (an append checks uniqueness and capacity each time,
    /// which cost more than the writing when a fleet read writes 2 MB).
    @usableFromInline var storage: [UInt8]
    /// Bytes of `storage` written so far.
    @usableFromInline var count = 0

    /// An empty document, with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// The document, handed over without a copy.
    public consuming func finish() -> [UInt8] {
        storage.removeLast(storage.count - count)
        return storage
    }

    /// Runs `body` on the next `length` bytes of room (growing it first if
    /// needed); `body` says how many it wrote: for writers of a value's text
    /// straight into the document, as a time's.
    @inlinable @inline(__always)
    public mutating func write(upTo length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + length > storage.count {
            storage.append(contentsOf: repeatElement(0, count: max(length, storage.count)))
        }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    /// Appends `text` as it is: keys, punctuation, whole fragments.
    @inlinable
    public mutating func raw(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        write(upTo: length) { out in
            out.update(from: text.utf8Start, count: length)
            return length
        }
    }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it
    /// (quotes, backslashes, slashes and control characters).
    @inlinable
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            write(upTo: 2 + 6 * utf8.count) { out in
                out[0] = UInt8(ascii: "\"")
                var length = 1
                for byte in utf8 {
                    if Self.needsEscaping(byte) {
                        length += Self.escape(byte, to: out + length)
                    } else {
                        out[length] = byte
                        length += 1
                    }
                }
                out[length] = UInt8(ascii: "\"")
                return length + 1
            }
        }
    }

    /// Whether `byte` of a string's UTF-8 must be escaped in JSON as `JSONEncoder` escapes it.
    @inlinable
    static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") || byte < 0x20
    }

    /// Writes the escape of `byte` at `out` (at most 6 bytes) and says how many bytes it took.
    @usableFromInline
    static func escape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out[1] = byte
        case 0x08: out[1] = UInt8(ascii: "b")
        case 0x0C: out[1] = UInt8(ascii: "f")
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigits[Int(byte >> 4)]
            out[5] = hexDigits[Int(byte & 0x0F)]
            return 6
        }
        return 2
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `value` in decimal.
    public mutating func integer(_ value: Int64) {
        if value < 0 { raw("-") }
        unsigned(value.magnitude)
    }

    /// Appends `value` in decimal, without a sign.
    @inlinable
    public mutating func unsigned(_ value: UInt64) {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        write(upTo: digitCount) { out in
            var rest = value
            for index in stride(from: digitCount - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digitCount
        }
    }

    /// Appends a finite `value` as `JSONEncoder` writes it: the shortest
    /// text that reads back the same, without a trailing `.0`. Whole
    /// numbers and tenths, most speeds and headings, are written directly.
    /// - Throws: `EncodingError.invalidValue` for an infinity or a NaN, which JSON cannot hold.
    @inlinable
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON holds no \(value)"))
        }
        let magnitude = value.magnitude
        if magnitude < 1e14, magnitude >= 0.1 || (magnitude == 0 && value.sign == .plus) {
            let whole = UInt64(magnitude)
            if Double(whole) == magnitude {
                if value < 0 { raw("-") }
                unsigned(whole)
                return
            }
            let tenths = UInt64(magnitude * 10 + 0.5)
            if Double(tenths) / 10 == magnitude {
                if value < 0 { raw("-") }
                unsigned(tenths / 10)
                write(upTo: 2) { out in
                    out[0] = UInt8(ascii: ".")
                    out[1] = UInt8(ascii: "0") + UInt8(tenths % 10)
                    return 2
                }
                return
            }
        }
        write(upTo: ShortestDoubleText.maximumLength) { out in
            var text = ShortestDoubleText(destination: out)
            value.write(to: &text)
            let length = text.count
            let wholeNumber = length >= 2 && out[length - 2] == UInt8(ascii: ".") && out[length - 1] == UInt8(ascii: "0")
            return wholeNumber ? length - 2 : length
        }
    }

    /// Appends degrees of latitude or longitude rounded to 7 decimals (about
    /// a centimetre, finer than any GPS fix), the precision RFC 7946 (§11.2)
    /// recommends for GeoJSON positions: the same text `JSONEncoder` writes
    /// for ``roundedDegrees(_:)``'s value, without its shortest-digits search,
    /// the most part of writing a position. `-0` is written `0`; values
    /// within 0.0001° of 0, which `JSONEncoder` writes with an exponent, are
    /// written as it writes them.
    /// - Throws: as ``double(_:)``.
    @inlinable
    public mutating func degrees(_ value: Double) throws {
        let rounded = Self.roundedDegrees(value)
        guard rounded.magnitude <= 360, rounded.magnitude >= 0.0001 || rounded == 0 else { return try double(rounded) }
        let scaled = UInt64((rounded.magnitude * Self.degreeScale).rounded())
        if rounded < 0 { raw("-") }
        unsigned(scaled / 10_000_000)
        var fraction = scaled % 10_000_000
        guard fraction > 0 else { return }
        var digitCount = 7
        while fraction % 10 == 0 {
            fraction /= 10
            digitCount -= 1
        }
        write(upTo: digitCount + 1) { out in
            out[0] = UInt8(ascii: ".")
            var rest = fraction
            for index in stride(from: digitCount, through: 1, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digitCount + 1
        }
    }

    /// 10^7: ``degrees(_:)`` keeps 7 decimals.
    @usableFromInline static let degreeScale = 10_000_000.0

    /// `value` rounded to the 7 decimals ``degrees(_:)`` writes, `-0` made
    /// `0`: what a `Codable` document holds for a position the API gives out,
    /// so that `JSONEncoder` and this writer give the same text.
    @inlinable
    public static func roundedDegrees(_ value: Double) -> Double {
        guard value.isFinite, value.magnitude <= 360 else { return value }
        let rounded = (value * degreeScale).rounded() / degreeScale
        return rounded == 0 ? 0 : rounded
    }

    /// `value` (seconds, metres) rounded to a tenth: what the API gives out
    /// for a time or a distance, since a router's estimate is not finer
    /// than that and `314.64300000000003` helps nobody.
    public static func roundedTenths(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return (value * 10).rounded() / 10
    }

    /// A duration's seconds rounded to a tenth (``roundedTenths(_:)``).
    public static func roundedSeconds(_ duration: Duration) -> Double {
        roundedTenths(duration / .seconds(1))
    }

    /// Appends `duration` as its `Codable` form: `[high, low]`, the two
    /// halves of its count of attoseconds as a 128-bit integer.
    public mutating func duration(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let total = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
        raw("[")
        integer(Int64(truncatingIfNeeded: total >> 64))
        raw(",")
        unsigned(UInt64(truncatingIfNeeded: total))
        raw("]")
    }

    /// Appends `date` as milliseconds since 1970.
    /// - Throws: as ``double(_:)``.
    public mutating func date(_ date: Date) throws {
        try double(1000 * date.timeIntervalSince1970)
    }
}

/// Receives the shortest text of a `Double` from the standard library's
/// `write(to:)` straight into the writer's room: `description` would make
/// a `String` (an allocation for 16 digits or more) per number.
@usableFromInline
struct ShortestDoubleText: TextOutputStream {
    /// Longer than any `Double`'s text (`-2.2250738585072014e-308` has 24 bytes).
    @usableFromInline static let maximumLength = 32
    /// Where the text goes.
    @usableFromInline let destination: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    @usableFromInline var count = 0

    @inlinable
    init(destination: UnsafeMutablePointer<UInt8>) {
        self.destination = destination
    }

    @inlinable
    mutating func write(_ string: String) {
        for byte in string.utf8 where count < Self.maximumLength {
            destination[count] = byte
            count += 1
        }
    }

    /// What `Double.write(to:)` calls with its digits, without making a `String`.
    @inlinable
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        let length = min(buffer.count, Self.maximumLength - count)
        (destination + count).update(from: buffer.baseAddress!, count: length)
        count += length
    }
}
