import Foundation
import Ingest
import NIOCore

/// Writes fixes in the line protocol (docs/line-protocol.md):
/// `MT1,<device>,<seq>,<time>,<lat>,<lon>,<speedKmh>,<heading>,A\n`, and
/// reads the server's `ACK,<seq>` lines back.
enum LinePayload {
    /// The bytes of one fix line, written without Foundation formatting
    /// (the generator must stay cheaper than the server it measures).
    static func line(for fix: GeneratedFix, seq: UInt64, into buffer: inout ByteBuffer) {
        buffer.writeStaticString("MT1,")
        buffer.writeString(fix.deviceId)
        buffer.writeInteger(UInt8(ascii: ","))
        writeDecimal(Int64(seq), fractionDigits: 0, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ","))
        buffer.writeString(FixTime.iso8601(fix.time))
        buffer.writeInteger(UInt8(ascii: ","))
        writeDecimal(Int64((fix.latitude * 1e6).rounded()), fractionDigits: 6, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ","))
        writeDecimal(Int64((fix.longitude * 1e6).rounded()), fractionDigits: 6, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ","))
        writeDecimal(Int64((fix.speedKmh * 10).rounded()), fractionDigits: 1, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ","))
        writeDecimal(Int64(fix.heading.rounded()) % 360, fractionDigits: 0, into: &buffer)
        buffer.writeStaticString(",A\n")
    }

    /// Writes `value / 10^fractionDigits` in plain decimal notation.
    static func writeDecimal(_ value: Int64, fractionDigits: Int, into buffer: inout ByteBuffer) {
        if value < 0 { buffer.writeInteger(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0 || digits.count <= fractionDigits
        for (index, digit) in digits.reversed().enumerated() {
            if fractionDigits > 0 && index == digits.count - fractionDigits { buffer.writeInteger(UInt8(ascii: ".")) }
            buffer.writeInteger(digit)
        }
    }

    /// The sequence numbers acknowledged in `text` (whole `ACK,<seq>` lines);
    /// `remainder` keeps a partial last line for the next read.
    static func acknowledgedSequences(in bytes: [UInt8], remainder: inout [UInt8]) -> [UInt64] {
        var sequences: [UInt64] = []
        var line = remainder
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if line.count > 4, line.starts(with: Array("ACK,".utf8)) {
                    var value: UInt64 = 0
                    var valid = true
                    for digit in line.dropFirst(4) where digit != UInt8(ascii: "\r") {
                        guard digit >= 48, digit <= 57 else { valid = false; break }
                        value = value * 10 + UInt64(digit - 48)
                    }
                    if valid { sequences.append(value) }
                }
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        remainder = line
        return sequences
    }
}

/// A simulated line-protocol terminal on TCP: no login, one line per fix,
/// ACKs name the line's sequence number.
struct LineStreamCodec: StreamDeviceCodec {
    /// A partial `ACK,` line kept for the next read.
    private var remainder: [UInt8] = []

    var acknowledges: Bool { true }

    /// The line protocol has no login.
    mutating func opening() -> [UInt8] {
        []
    }

    /// Nothing to wait for: accepted at once.
    mutating func openingAccepted(_ bytes: inout [UInt8]) -> Bool? {
        true
    }

    /// One line per fix, numbered from `sequence`; the key is the last line's
    /// number, since the server answers a write's lines together.
    mutating func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        for (offset, fix) in fixes.enumerated() {
            LinePayload.line(for: fix, seq: sequence + UInt64(offset), into: &buffer)
        }
        return sequence + UInt64(fixes.count - 1)
    }

    /// The sequence numbers of the whole `ACK,<seq>` lines received.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64] {
        LinePayload.acknowledgedSequences(in: Array(bytes), remainder: &remainder)
    }
}

/// Line-protocol datagrams: one fix line each, answered by `ACK,<seq>`.
struct LineDatagramCodec: DatagramDeviceCodec {
    /// The fix line; the key is its sequence number.
    func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        LinePayload.line(for: fixes[0], seq: sequence, into: &buffer)
        return sequence
    }

    /// The sequence numbers acknowledged by the datagram.
    func acknowledged(in datagram: ByteBufferView) -> [UInt64] {
        var remainder: [UInt8] = []
        return LinePayload.acknowledgedSequences(in: Array(datagram), remainder: &remainder)
    }
}
