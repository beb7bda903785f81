import FixRecords
import Foundation
import GeoKit

/// Appends JSON to a byte buffer by hand, in the shapes `JSONEncoder` gives
/// the dispatch log's values (``DispatchLogCoding``: dates in milliseconds
/// since 1970, a `Duration` as `[high, low]` of its attoseconds), so that
/// `JSONDecoder` reads what it writes. The log's writer thread encodes
/// every command with it: `JSONEncoder` builds a tree of boxed values per
/// entry, which cost more than the SQLite insert itself. The API writes
/// the fleet's positions with it too, for the same reason.
public struct JSONWriter {
    /// The document so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty document, with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text` as it is: keys, punctuation, whole fragments.
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it
    /// (quotes, backslashes, slashes and control characters). A text with
    /// none of them, the usual id or name, is copied in one go.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        guard bytes[start...].contains(where: Self.needsEscaping) else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        bytes.removeSubrange(start...)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "/"): raw("\\/")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case ..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether `byte` of a string's UTF-8 must be escaped in JSON as `JSONEncoder` escapes it.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") || byte < 0x20
    }

    /// Appends `value` in decimal.
    public mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// Appends `value` in decimal, without a sign.
    public mutating func unsigned(_ value: UInt64) {
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// Appends a finite `value` as `JSONEncoder` writes it: the shortest
    /// text that reads back the same, without a trailing `.0`.
    /// - Throws: `EncodingError.invalidValue` for an infinity or a NaN, which JSON cannot hold.
    public mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON holds no \(value)"))
        }
        var text = value.description
        text.withUTF8 { digits in
            let wholeNumber = digits.count >= 2 && digits[digits.count - 2] == UInt8(ascii: ".") && digits.last == UInt8(ascii: "0")
            bytes.append(contentsOf: wholeNumber ? UnsafeBufferPointer(rebasing: digits.dropLast(2)) : digits)
        }
    }

    /// Appends `duration` as its `Codable` form: `[high, low]`, the two
    /// halves of its count of attoseconds as a 128-bit integer.
    public mutating func duration(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let total = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
        bytes.append(UInt8(ascii: "["))
        integer(Int64(truncatingIfNeeded: total >> 64))
        bytes.append(UInt8(ascii: ","))
        unsigned(UInt64(truncatingIfNeeded: total))
        bytes.append(UInt8(ascii: "]"))
    }

    /// Appends `date` as milliseconds since 1970.
    /// - Throws: as ``double(_:)``.
    public mutating func date(_ date: Date) throws {
        try double(1000 * date.timeIntervalSince1970)
    }

    /// Appends `coordinate` as its `Codable` form.
    /// - Throws: as ``double(_:)``.
    public mutating func coordinate(_ coordinate: Coordinate) throws {
        raw("{\"longitude\":")
        try double(coordinate.longitude)
        raw(",\"latitude\":")
        try double(coordinate.latitude)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends `date` as a JSON string in the service's one time format,
    /// ``FixTime/iso8601(_:)``'s (`"2026-11-23T08:00:05.250Z"`: UTC, the
    /// milliseconds rounded), written straight into the document.
    public mutating func fixTime(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        FixTime.appendISO8601(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}
