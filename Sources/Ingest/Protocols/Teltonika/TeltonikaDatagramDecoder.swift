import FixRecords
/// Teltonika Codec 8 / 8 Extended / 16 over UDP (SPEC I2): every datagram
/// names its device and carries no CRC:
///
///     length (2) | packet id (2) | packet type (1) | AVL packet id (1)
///     | IMEI length (2) | IMEI | AVL data
///
/// answered, once the records are stored, by
/// `00 05 | packet id | 01 | AVL packet id | record count (1)`.
public enum TeltonikaDatagramDecoder: DatagramDecoder {
    public static var wireProtocol: WireProtocol { .teltonikaUDP }

    public static func decodeDatagram(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame {
        var reader = ByteReader(bytes, recovery: .skip(bytes.count))
        let length = Int(try reader.uint16("length"))
        guard length == bytes.count - 2 else {
            throw FrameError(.malformed, "length field \(length) but \(bytes.count - 2) bytes follow it", recovery: reader.recovery)
        }
        let packetId = try reader.uint16("packet id")
        try reader.skip(1, "packet type")
        let avlPacketId = try reader.uint8("AVL packet id")
        let imeiLength = Int(try reader.uint16("IMEI length"))
        guard (1...TeltonikaDecoder.maxIMEILength).contains(imeiLength) else {
            throw FrameError(.malformed, "IMEI length \(imeiLength) is not an IMEI's", recovery: reader.recovery)
        }
        let digits = try reader.slice(imeiLength, "IMEI")
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw FrameError(.malformed, "the IMEI is not all digits", recovery: reader.recovery)
        }
        let imei = String(decoding: digits, as: UTF8.self)
        switch try TeltonikaAVLData.decode(&reader, deviceId: imei) {
        case .command:
            return DecodedFrame(length: bytes.count, kind: .other, announcedDeviceId: imei)
        case .positions(let fixes):
            let reply: [UInt8] = [0x00, 0x05, UInt8(packetId >> 8), UInt8(packetId & 0xFF), 0x01, avlPacketId, UInt8(fixes.count)]
            return DecodedFrame(length: bytes.count, kind: .position, announcedDeviceId: imei, fixes: fixes, reply: reply)
        }
    }
}
