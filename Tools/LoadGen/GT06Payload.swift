import Foundation
import Ingest
import NIOCore

/// One simulated Concox GT06 terminal (Sources/Ingest/GT06Decoder.swift):
/// logs in with a 0x01 frame carrying its IMEI, then sends 0x12 location
/// frames; the server answers each frame with `78 78 05 TYPE SERIAL CRC 0D 0A`,
/// so ACKs are matched to frames by their serial.
struct GT06Codec: StreamDeviceCodec {
    /// Frame type of the login.
    static let loginType: UInt8 = 0x01
    /// Frame type of a location (GPS block and cell data).
    static let locationType: UInt8 = 0x12

    /// The terminal's 15-digit IMEI.
    let imei: String
    /// The serial of the last frame sent; incremented per frame, wrapping.
    private var serial: UInt16 = 0
    /// Reply bytes not yet forming a whole ACK frame.
    private var pending: [UInt8] = []

    var acknowledges: Bool { true }

    /// A terminal identified by `imei` (15 digits).
    init(imei: String) {
        self.imei = imei
    }

    /// The login frame: the IMEI as 8 BCD bytes behind a leading 0 digit.
    mutating func opening() -> [UInt8] {
        let digits = Array(("0" + imei).utf8).map { $0 &- UInt8(ascii: "0") }
        let bcd = stride(from: 0, to: 16, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
        var buffer = ByteBuffer()
        writeFrame(type: Self.loginType, content: bcd, into: &buffer)
        return Array(buffer.readableBytesView)
    }

    /// Accepted once the login's ACK frame (type 0x01) arrives; the server
    /// refuses an unknown IMEI by closing the connection.
    mutating func openingAccepted(_ bytes: inout [UInt8]) -> Bool? {
        guard bytes.count >= 10 else { return nil }
        defer { bytes.removeFirst(10) }
        return bytes[0] == 0x78 && bytes[1] == 0x78 && bytes[3] == Self.loginType
    }

    /// One location frame per fix (GT06 has no batches); the key is its serial.
    mutating func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        var content: [UInt8] = []
        content.reserveCapacity(26)
        Self.appendGPSBlock(of: fixes[0], to: &content)
        content += [0x00, 0xD0, 0x01, 0x12, 0x34, 0x00, 0x56, 0x78]
        writeFrame(type: Self.locationType, content: content, into: &buffer)
        return UInt64(serial)
    }

    /// The serials of the location ACK frames in `bytes`.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64] {
        pending += bytes
        var serials: [UInt64] = []
        var start = 0
        while pending.count - start >= 3 {
            let total = Int(pending[start + 2]) + 5
            guard pending.count - start >= total else { break }
            if pending[start + 3] == Self.locationType {
                serials.append(UInt64(pending[start + total - 6]) << 8 | UInt64(pending[start + total - 5]))
            }
            start += total
        }
        pending.removeFirst(start)
        return serials
    }

    /// Appends `78 78 LEN TYPE CONTENT SERIAL CRC 0D 0A` with the next serial;
    /// the CRC-16/X.25 covers LEN through SERIAL.
    private mutating func writeFrame(type: UInt8, content: [UInt8], into buffer: inout ByteBuffer) {
        serial &+= 1
        var frame: [UInt8] = [0x78, 0x78, UInt8(content.count + 5), type]
        frame.reserveCapacity(content.count + 10)
        frame += content
        frame += [UInt8(serial >> 8), UInt8(serial & 0xFF)]
        let crc = frame[2...].withUnsafeBytes { CRC16.x25($0) }
        frame += [UInt8(crc >> 8), UInt8(crc & 0xFF), 0x0D, 0x0A]
        buffer.writeBytes(frame)
    }

    /// The 18-byte GPS block (Sources/Ingest/GT06GPSBlock.swift): UTC time,
    /// info byte, latitude and longitude as degrees × 1,800,000 unsigned,
    /// speed km/h, and the course/status word (bit 12 GPS fixed, 10 north, 11 west).
    static func appendGPSBlock(of fix: GeneratedFix, to content: inout [UInt8]) {
        let time = UTCFields(fix.time)
        content += [time.year % 100, time.month, time.day, time.hour, time.minute, time.second].map { UInt8($0) }
        content.append(0xC9)
        for degrees in [fix.latitude, fix.longitude] {
            let raw = UInt32((abs(degrees) * 1_800_000).rounded())
            content += [UInt8(raw >> 24), UInt8(raw >> 16 & 0xFF), UInt8(raw >> 8 & 0xFF), UInt8(raw & 0xFF)]
        }
        content.append(UInt8(min(fix.speedKmh.rounded(), 255)))
        var status = UInt16(Int(fix.heading.rounded()) % 360) | 0x1000
        if fix.latitude >= 0 { status |= 0x0400 }
        if fix.longitude < 0 { status |= 0x0800 }
        content += [UInt8(status >> 8), UInt8(status & 0xFF)]
    }
}
