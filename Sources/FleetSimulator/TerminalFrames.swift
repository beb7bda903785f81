import Foundation
import GeoKit
import Ingest

/// The bytes a simulated terminal sends over TCP, in its protocol: the
/// opening of its session and one frame per fix (the formats the service's
/// decoders read: docs/line-protocol.md, Teltonika Codec 8, GT06 0x12).
public struct TerminalFrames: Sendable {
    /// The protocol.
    public let kind: TerminalKind
    /// The terminal's device id (an IMEI for Teltonika and GT06).
    public let deviceId: String
    private var serial: UInt16 = 0

    /// The frames of terminal `deviceId` speaking `kind`.
    public init(kind: TerminalKind, deviceId: String) {
        self.kind = kind
        self.deviceId = deviceId
    }

    /// What opens a session: nothing for the line protocol, the IMEI
    /// handshake for Teltonika, the login frame for GT06.
    public mutating func opening() -> [UInt8] {
        switch kind {
        case .line:
            return []
        case .teltonika:
            return [0x00, UInt8(deviceId.utf8.count)] + Array(deviceId.utf8)
        case .gt06:
            let digits = Array(("0" + deviceId).utf8).map { $0 &- UInt8(ascii: "0") }
            let bcd = stride(from: 0, to: 16, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
            return gt06Frame(type: 0x01, content: bcd)
        }
    }

    /// The frame carrying `fix`, numbered `sequence` where the protocol numbers fixes.
    public mutating func frame(_ fix: TerminalFix, sequence: UInt64) -> [UInt8] {
        switch kind {
        case .line:
            let numbers = String(
                format: "%.6f,%.6f,%.1f,%d", fix.coordinate.latitude, fix.coordinate.longitude, max(fix.speedKmh, 0),
                Int(fix.heading.rounded()) % 360)
            return Array("MT1,\(deviceId),\(sequence),\(Int64(fix.time.timeIntervalSince1970)),\(numbers),A\n".utf8)
        case .teltonika:
            let data = Self.avlData(fix)
            var packet: [UInt8] = [0, 0, 0, 0]
            Self.append(UInt64(data.count), width: 4, to: &packet)
            packet += data
            Self.append(UInt64(data.withUnsafeBytes { CRC16.ibm($0) }), width: 4, to: &packet)
            return packet
        case .gt06:
            return gt06Frame(type: 0x12, content: Self.gt06GPSBlock(fix) + [0x00, 0xD0, 0x01, 0x12, 0x34, 0x00, 0x56, 0x78])
        }
    }

    /// Codec 8 AVL data with one record: time in ms, priority 0, longitude
    /// and latitude × 10^7, altitude, angle, satellites, speed, no IO elements.
    private static func avlData(_ fix: TerminalFix) -> [UInt8] {
        var data: [UInt8] = [0x08, 1]
        append(UInt64(fix.time.timeIntervalSince1970 * 1000), width: 8, to: &data)
        data.append(0)
        append(UInt64(UInt32(bitPattern: Int32((fix.coordinate.longitude * 10_000_000).rounded()))), width: 4, to: &data)
        append(UInt64(UInt32(bitPattern: Int32((fix.coordinate.latitude * 10_000_000).rounded()))), width: 4, to: &data)
        append(20, width: 2, to: &data)
        append(UInt64(Int(fix.heading.rounded()) % 360), width: 2, to: &data)
        data.append(9)
        append(UInt64(max(fix.speedKmh, 0).rounded()), width: 2, to: &data)
        data += [0, 0, 0, 0, 0, 0, 1]
        return data
    }

    /// The 18-byte GT06 GPS block: UTC date and time, satellites, latitude
    /// and longitude × 1,800,000, speed, course with the fixed, north and west bits.
    private static func gt06GPSBlock(_ fix: TerminalFix) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: fix.time)
        var block = [parts.year.map { $0 % 100 }, parts.month, parts.day, parts.hour, parts.minute, parts.second]
            .map { UInt8($0 ?? 0) }
        block.append(0xC9)
        for degrees in [fix.coordinate.latitude, fix.coordinate.longitude] {
            append(UInt64(UInt32((abs(degrees) * 1_800_000).rounded())), width: 4, to: &block)
        }
        block.append(UInt8(min(max(fix.speedKmh, 0).rounded(), 255)))
        var status = UInt16(Int(fix.heading.rounded()) % 360) | 0x1000
        if fix.coordinate.latitude >= 0 { status |= 0x0400 }
        if fix.coordinate.longitude < 0 { status |= 0x0800 }
        append(UInt64(status), width: 2, to: &block)
        return block
    }

    /// `78 78 LEN TYPE CONTENT SERIAL CRC 0D 0A`, the CRC-16/X.25 over LEN to SERIAL.
    private mutating func gt06Frame(type: UInt8, content: [UInt8]) -> [UInt8] {
        serial &+= 1
        var frame: [UInt8] = [0x78, 0x78, UInt8(content.count + 5), type] + content
        Self.append(UInt64(serial), width: 2, to: &frame)
        let crc = frame[2...].withUnsafeBytes { CRC16.x25($0) }
        Self.append(UInt64(crc), width: 2, to: &frame)
        return frame + [0x0D, 0x0A]
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in stride(from: width - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}
