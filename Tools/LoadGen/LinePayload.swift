import Foundation
import Ingest
import NIOCore

/// Writes fixes in the line protocol (docs/line-protocol.md):
/// `MT1,<device>,<seq>,<time>,<lat>,<lon>,<speedKmh>,<heading>,A\n`, and
/// reads the server's `ACK,<seq>` lines back.
enum LinePayload {
    /// The bytes of one fix line, composed in a small local array and
    /// written to `buffer` at once, without Foundation formatting (the
    /// generator must stay cheaper than the server it measures).
    /// One line per fix of `fixes`, numbered from `firstSeq`; returns the
    /// last line's number, the one whose ACK answers them all.
    static func lines(for fixes: [GeneratedFix], firstSeq: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        for (offset, fix) in fixes.enumerated() {
            line(for: fix, seq: firstSeq + UInt64(offset), into: &buffer)
        }
        return firstSeq + UInt64(fixes.count - 1)
    }

    static func line(for fix: GeneratedFix, seq: UInt64, into buffer: inout ByteBuffer) {
        var line: [UInt8] = []
        line.reserveCapacity(128)
        line += "MT1,".utf8
        line += fix.deviceId.utf8
        line.append(UInt8(ascii: ","))
        appendDecimal(Int64(seq), fractionDigits: 0, to: &line)
        line.append(UInt8(ascii: ","))
        appendTime(fix.time, to: &line)
        line.append(UInt8(ascii: ","))
        appendDecimal(Int64((fix.latitude * 1e6).rounded()), fractionDigits: 6, to: &line)
        line.append(UInt8(ascii: ","))
        appendDecimal(Int64((fix.longitude * 1e6).rounded()), fractionDigits: 6, to: &line)
        line.append(UInt8(ascii: ","))
        appendDecimal(Int64((fix.speedKmh * 10).rounded()), fractionDigits: 1, to: &line)
        line.append(UInt8(ascii: ","))
        appendDecimal(Int64(fix.heading.rounded()) % 360, fractionDigits: 0, to: &line)
        line += ",A\n".utf8
        buffer.writeBytes(line)
    }

    /// Writes `value / 10^fractionDigits` in plain decimal notation.
    static func writeDecimal(_ value: Int64, fractionDigits: Int, into buffer: inout ByteBuffer) {
        var text: [UInt8] = []
        appendDecimal(value, fractionDigits: fractionDigits, to: &text)
        buffer.writeBytes(text)
    }

    /// Appends `value / 10^fractionDigits` in plain decimal notation.
    static func appendDecimal(_ value: Int64, fractionDigits: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digitCount = 0
        var probe = magnitude
        repeat {
            digitCount += 1
            probe /= 10
        } while probe > 0
        digitCount = max(digitCount, fractionDigits + 1)
        let start = bytes.count
        let dot = fractionDigits > 0 ? 1 : 0
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount + dot))
        var index = bytes.count - 1
        for position in 0..<digitCount {
            if fractionDigits > 0 && position == fractionDigits {
                bytes[index] = UInt8(ascii: ".")
                index -= 1
            }
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        }
        assert(index == start - 1)
    }

    /// Appends a non-negative `value` in decimal, zero-padded to `width` digits.
    static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends `date` as `YYYY-MM-DDThh:mm:ss.fffZ` (UTC).
    static func appendTime(_ date: Date, to bytes: inout [UInt8]) {
        let utc = UTCFields(date)
        let fields: [(value: Int, width: Int, then: Unicode.Scalar)] = [
            (utc.year, 4, "-"), (utc.month, 2, "-"), (utc.day, 2, "T"), (utc.hour, 2, ":"),
            (utc.minute, 2, ":"), (utc.second, 2, "."), (utc.millisecond, 3, "Z"),
        ]
        for field in fields {
            appendPadded(field.value, width: field.width, to: &bytes)
            bytes.append(UInt8(ascii: field.then))
        }
    }
}

/// Reads the server's `ACK,<seq>` lines as bytes arrive, keeping the state
/// of a line split across reads; other lines are skipped.
struct AckLineScanner {
    private static let prefix = Array("ACK,".utf8)
    /// Bytes of the current line seen so far.
    private var position = 0
    private var value: UInt64 = 0
    private var valid = true

    /// Appends to `sequences` the number of every `ACK,<seq>` line completed in `bytes`.
    mutating func scan(_ bytes: some Sequence<UInt8>, into sequences: inout [UInt64]) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if valid, position > Self.prefix.count { sequences.append(value) }
                (position, value, valid) = (0, 0, true)
                continue
            }
            if position < Self.prefix.count {
                valid = valid && byte == Self.prefix[position]
            } else if byte != UInt8(ascii: "\r") {
                if byte >= 48, byte <= 57 {
                    value = value &* 10 &+ UInt64(byte - 48)
                } else {
                    valid = false
                }
            }
            position += 1
        }
    }
}

/// A simulated line-protocol terminal on TCP: no login, one line per fix,
/// ACKs name the line's sequence number.
struct LineStreamCodec: StreamDeviceCodec {
    /// A partial `ACK,` line kept for the next read.
    private var scanner = AckLineScanner()

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
        LinePayload.lines(for: fixes, firstSeq: sequence, into: &buffer)
    }

    /// The sequence numbers of the whole `ACK,<seq>` lines received.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64] {
        var sequences: [UInt64] = []
        scanner.scan(bytes, into: &sequences)
        return sequences
    }
}

/// Line-protocol datagrams: one or more fix lines of one device each,
/// answered by one datagram of `ACK,<seq>` lines.
struct LineDatagramCodec: DatagramDeviceCodec {
    /// The fix lines numbered from `sequence`; the key is the last line's
    /// number, since the server answers a datagram's lines together.
    func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        LinePayload.lines(for: fixes, firstSeq: sequence, into: &buffer)
    }

    /// The sequence numbers acknowledged by the datagram.
    func acknowledged(in datagram: ByteBufferView) -> [UInt64] {
        var scanner = AckLineScanner()
        var sequences: [UInt64] = []
        scanner.scan(datagram, into: &sequences)
        return sequences
    }
}
