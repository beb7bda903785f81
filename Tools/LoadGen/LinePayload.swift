import Foundation

/// Writes fixes in the line protocol (docs/line-protocol.md):
/// `MT1,<device>,<seq>,<time>,<lat>,<lon>,<speedKmh>,<heading>,A\n`, and
/// reads the server's `ACK,<seq>` lines back.
enum LinePayload {
    /// The bytes of one fix line.
    static func line(for fix: GeneratedFix, seq: UInt64) -> String {
        let lat = String(format: "%.6f", fix.latitude)
        let lon = String(format: "%.6f", fix.longitude)
        let speed = String(format: "%.1f", fix.speedKmh)
        let heading = String(format: "%.0f", fix.heading)
        return "MT1,\(fix.deviceId),\(seq),\(iso8601(fix.time)),\(lat),\(lon),\(speed),\(heading),A\n"
    }

    /// `2026-11-23T08:00:00.123Z`.
    static func iso8601(_ date: Date) -> String {
        var time = time_t(floor(date.timeIntervalSince1970))
        let millis = Int((date.timeIntervalSince1970 - Double(time)) * 1000)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, millis)
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
