import Foundation

/// Rows in PostgreSQL's binary COPY format (`COPY ... FROM STDIN (FORMAT
/// binary)`): a header, then per row the field count and each field as a
/// length and its bytes in network order, then a trailer. Binary rows need
/// no escaping and no parsing of numbers on the server, which is what
/// makes COPY the fastest way in.
struct BinaryCopyWriter {
    private(set) var bytes: [UInt8]

    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch.
    private static let postgresEpochMicroseconds: Int64 = 946_684_800_000_000

    /// An empty COPY stream: the signature, no flags, no header extension.
    init() {
        bytes = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        bytes.reserveCapacity(1 << 16)
        append(Int32(0))
        append(Int32(0))
    }

    /// Starts a row of `fields` fields.
    mutating func startRow(fields: Int16) {
        append(fields)
    }

    /// A text field (UTF-8), or NULL.
    mutating func text(_ value: String?) {
        guard let value else {
            append(Int32(-1))
            return
        }
        let utf8 = Array(value.utf8)
        append(Int32(utf8.count))
        bytes += utf8
    }

    /// A float8 field.
    mutating func double(_ value: Double) {
        append(Int32(8))
        append(value.bitPattern)
    }

    /// A timestamptz field, to the whole millisecond as every store keeps dates.
    mutating func timestamp(milliseconds: Int64) {
        append(Int32(8))
        append(milliseconds * 1000 - Self.postgresEpochMicroseconds)
    }

    /// Ends the stream; nothing may be added after it.
    mutating func finish() {
        append(Int16(-1))
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
