import Foundation
import NIOCore

/// One simulated NMEA tracker on TCP (Sources/Ingest/NMEADecoder.swift): a
/// line holding only its identifier, then one `$GPRMC` sentence per fix with
/// its `*hh` checksum. NMEA has no acknowledgement: the run counts the
/// fixes the server archived instead.
struct NMEAStreamCodec: StreamDeviceCodec {
    /// The identifier line names this device for the sentences that follow.
    let deviceId: String

    var acknowledges: Bool { false }

    /// The identifier line.
    mutating func opening() -> [UInt8] {
        Array((deviceId + "\r\n").utf8)
    }

    /// Nothing answers the identifier line: accepted at once.
    mutating func openingAccepted(_ bytes: inout [UInt8]) -> Bool? {
        true
    }

    /// One sentence per fix, `$GPRMC,hhmmss.sss,A,ddmm.mmmm,N,dddmm.mmmm,E,knots,course,ddmmyy,,,A*hh`;
    /// the key is `sequence` (never acknowledged).
    mutating func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        let fix = fixes[0]
        let time = UTCFields(fix.time)
        buffer.writeStaticString("$")
        let start = buffer.writerIndex
        buffer.writeStaticString("GPRMC,")
        for value in [time.hour, time.minute, time.second] { Self.writePadded(value, width: 2, into: &buffer) }
        buffer.writeStaticString(".")
        Self.writePadded(time.millisecond, width: 3, into: &buffer)
        buffer.writeStaticString(",A,")
        Self.writeMinutes(fix.latitude, degreeDigits: 2, into: &buffer)
        buffer.writeString(fix.latitude >= 0 ? ",N," : ",S,")
        Self.writeMinutes(fix.longitude, degreeDigits: 3, into: &buffer)
        buffer.writeString(fix.longitude >= 0 ? ",E," : ",W,")
        LinePayload.writeDecimal(Int64((fix.speedKmh / 1.852 * 10).rounded()), fractionDigits: 1, into: &buffer)
        buffer.writeStaticString(",")
        LinePayload.writeDecimal(Int64((fix.heading * 10).rounded()) % 3600, fractionDigits: 1, into: &buffer)
        buffer.writeStaticString(",")
        for value in [time.day, time.month, time.year % 100] { Self.writePadded(value, width: 2, into: &buffer) }
        buffer.writeStaticString(",,,A")
        let checksum = buffer.getBytes(at: start, length: buffer.writerIndex - start)!.reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF".utf8)
        buffer.writeBytes([UInt8(ascii: "*"), hex[Int(checksum >> 4)], hex[Int(checksum & 0x0F)], 0x0D, 0x0A])
        return sequence
    }

    /// NMEA has no acknowledgement.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64] {
        []
    }

    /// `d…dmm.mmmm` of the magnitude of `degrees`, the degrees zero-padded to `degreeDigits`.
    static func writeMinutes(_ degrees: Double, degreeDigits: Int, into buffer: inout ByteBuffer) {
        let tenThousandths = Int((abs(degrees) * 600_000).rounded())
        writePadded(tenThousandths / 600_000, width: degreeDigits, into: &buffer)
        writePadded(tenThousandths % 600_000 / 10_000, width: 2, into: &buffer)
        buffer.writeStaticString(".")
        writePadded(tenThousandths % 10_000, width: 4, into: &buffer)
    }

    /// A non-negative `value` in decimal, zero-padded to `width` digits.
    static func writePadded(_ value: Int, width: Int, into buffer: inout ByteBuffer) {
        var digits: [UInt8] = []
        LinePayload.appendPadded(value, width: width, to: &digits)
        buffer.writeBytes(digits)
    }
}
