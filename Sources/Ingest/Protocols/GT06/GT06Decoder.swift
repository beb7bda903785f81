import FixRecords
import Foundation

/// Concox GT06 binary frames over TCP (SPEC I2), the protocol of most cheap
/// vehicle trackers:
///
///     78 78 | LEN (1) | TYPE | CONTENT | SERIAL (2) | CRC (2) | 0D 0A
///     79 79 | LEN (2) | TYPE | CONTENT | SERIAL (2) | CRC (2) | 0D 0A
///
/// `LEN` counts TYPE through CRC; the CRC is CRC-16/X.25 over LEN through
/// SERIAL. The terminal logs in (0x01) with its IMEI, then sends locations
/// (0x12, 0x22 and their variants), heartbeats (0x13) and alarms (0x16...),
/// each answered by an ACK frame echoing type and serial. Frames with a
/// wrong CRC are dropped unanswered, so the terminal sends them again.
public struct GT06Decoder: StreamFrameDecoder {
    public static var wireProtocol: WireProtocol { .gt06 }

    /// Message types whose content starts with the 18-byte GPS block (some
    /// terminals send them empty, as a keep-alive: answered, nothing stored).
    static func isLocation(_ type: UInt8) -> Bool {
        switch type {
        case 0x10, 0x11, 0x12, 0x17, 0x1E, 0x22, 0x24, 0x37, 0xA0, 0xA2: true
        default: false
        }
    }

    /// Alarm types: a GPS block, the cell, then terminal status and the alarm code.
    static func isAlarm(_ type: UInt8) -> Bool {
        switch type {
        case 0x16, 0x26, 0x27, 0xA4: true
        default: false
        }
    }
    static let loginType: UInt8 = 0x01
    static let heartbeatType: UInt8 = 0x13

    /// The IMEI from the login of this connection.
    public private(set) var deviceId: String?

    public init() {}

    public mutating func assumeIdentity(_ deviceId: String) {
        self.deviceId = deviceId
    }

    /// Decodes the frame ``GT06Framer`` finds at the start of `bytes`.
    public mutating func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame? {
        guard let frame = try GT06Framer.frame(in: bytes) else { return nil }
        let (total, type) = (frame.length, frame.type)
        let reply = Self.acknowledgement(type: type, serial: frame.serial, long: frame.isLong)
        var content = ByteReader(bytes, from: frame.content.lowerBound, to: frame.content.upperBound, recovery: .skip(total))

        if type == Self.loginType {
            let imei = try Self.imei(&content)
            deviceId = imei
            return DecodedFrame(length: total, kind: .login, announcedDeviceId: imei, reply: reply)
        }
        if type == Self.heartbeatType {
            return DecodedFrame(length: total, kind: .heartbeat, reply: reply)
        }
        let isAlarm = Self.isAlarm(type)
        guard isAlarm || Self.isLocation(type), content.remaining > 0 else {
            return DecodedFrame(length: total, kind: .other, reply: reply)
        }
        guard let deviceId else {
            throw FrameError(.notIdentified, "message type \(type.hexText) before the terminal logged in", recovery: .closeConnection)
        }
        var fix = try GT06GPSBlock.read(&content, deviceId: deviceId)
        if isAlarm { fix.alarm = Self.alarmName(after: &content) }
        return DecodedFrame(length: total, kind: isAlarm ? .alarm : .position, fixes: [fix], reply: reply)
    }

    /// The ACK frame for a message: same header form, type and serial.
    static func acknowledgement(type: UInt8, serial: UInt16, long: Bool) -> [UInt8] {
        let header = long ? 4 : 3
        return [UInt8](unsafeUninitializedCapacity: header + 7) { frame, count in
            frame[0] = long ? 0x79 : 0x78
            frame[1] = frame[0]
            if long { frame[2] = 0x00 }
            frame[header - 1] = 0x05
            frame[header] = type
            frame[header + 1] = UInt8(serial >> 8)
            frame[header + 2] = UInt8(serial & 0xFF)
            let crc = CRC16.x25(UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: frame[2..<(header + 3)])))
            frame[header + 3] = UInt8(crc >> 8)
            frame[header + 4] = UInt8(crc & 0xFF)
            frame[header + 5] = 0x0D
            frame[header + 6] = 0x0A
            count = header + 7
        }
    }

    /// The 15-digit IMEI of a login: 8 BCD bytes with a leading zero digit.
    static func imei(_ content: inout ByteReader) throws(FrameError) -> String {
        let bcd = try content.slice(8, "terminal id")
        var digits = ""
        digits.reserveCapacity(16)
        for byte in bcd {
            let (high, low) = (byte >> 4, byte & 0x0F)
            guard high < 10, low < 10 else {
                throw FrameError(.malformed, "terminal id byte \(byte.hexText) is not BCD", recovery: content.recovery)
            }
            digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + high)))
            digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + low)))
        }
        return digits.first == "0" ? String(digits.dropFirst()) : digits
    }

    /// The alarm code that follows the cell block and the terminal status
    /// (terminal info, voltage, GSM signal), named as in the manual; nil when
    /// the code is 0 or the frame is a vendor layout without it.
    static func alarmName(after content: inout ByteReader) -> String? {
        guard let cellLength = try? content.uint8("cell length"), cellLength > 0,
            (try? content.skip(Int(cellLength) - 1 + 3, "cell and terminal status")) != nil,
            let code = try? content.uint8("alarm")
        else { return nil }
        switch code {
        case 0x00: return nil
        case 0x01: return "sos"
        case 0x02: return "powerCut"
        case 0x03: return "vibration"
        case 0x04: return "geofenceEnter"
        case 0x05: return "geofenceExit"
        case 0x06: return "overspeed"
        case 0x09: return "tow"
        default: return "code-\(code.hexText)"
        }
    }
}
