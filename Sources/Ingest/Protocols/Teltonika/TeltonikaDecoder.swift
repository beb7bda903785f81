import FixRecords
/// Teltonika Codec 8 / 8 Extended / 16 over TCP (SPEC I2), the FMB family:
///
///     IMEI handshake: 00 0F | 15 ASCII digits      → 01 (accepted) or 00
///     AVL packet:     00 00 00 00 | data length (4) | AVL data | CRC (4)
///                                                  → record count (4)
///     keep-alive:     FF                           → nothing
///
/// The CRC is CRC-16/IBM over the AVL data, in the low two bytes of the
/// field. A packet with a wrong CRC is dropped unanswered, so the device
/// sends it again; a broken preamble closes the connection (the stream
/// cannot be resynchronised).
public struct TeltonikaDecoder: StreamFrameDecoder {
    public static var wireProtocol: WireProtocol { .teltonika }

    /// The largest AVL data field accepted (devices send at most a few KiB).
    public static let maxDataLength = 65_536
    /// The longest device identity accepted in the handshake.
    public static let maxIMEILength = 32

    /// The IMEI from the handshake of this connection.
    public private(set) var deviceId: String?

    public init() {}

    public mutating func assumeIdentity(_ deviceId: String) {
        self.deviceId = deviceId
    }

    public mutating func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame? {
        guard let deviceId else { return try handshake(bytes) }
        guard let first = bytes.first else { return nil }
        if first == 0xFF { return DecodedFrame(length: 1, kind: .heartbeat) }
        guard bytes.count >= 8 else { return nil }
        guard bytes[0] == 0, bytes[1] == 0, bytes[2] == 0, bytes[3] == 0 else {
            throw FrameError(.garbage, "an AVL packet must start with 00 00 00 00", recovery: .closeConnection)
        }
        var header = ByteReader(bytes, from: 4, recovery: .closeConnection)
        let dataLength = Int(try header.uint32("data length"))
        guard dataLength <= Self.maxDataLength else {
            throw FrameError(.oversized, "data length \(dataLength) is over the \(Self.maxDataLength) limit", recovery: .closeConnection)
        }
        guard dataLength >= 3 else {
            throw FrameError(.malformed, "data length \(dataLength) cannot hold a codec and two record counts", recovery: .closeConnection)
        }
        let total = 8 + dataLength + 4
        guard bytes.count >= total else { return nil }
        let data = UnsafeRawBufferPointer(rebasing: bytes[8..<(8 + dataLength)])
        let sent = UInt16(bytes[total - 2]) << 8 | UInt16(bytes[total - 1])
        let computed = CRC16.ibm(data)
        guard sent == computed else {
            throw FrameError(
                .badChecksum, "CRC \(sent.hexText) but the AVL data gives \(computed.hexText)",
                recovery: .skip(total))
        }
        var reader = ByteReader(bytes, from: 8, to: 8 + dataLength, recovery: .skip(total))
        switch try TeltonikaAVLData.decode(&reader, deviceId: deviceId) {
        case .command:
            return DecodedFrame(length: total, kind: .other)
        case .positions(let fixes):
            let reply = [UInt8](unsafeUninitializedCapacity: 4) { bytes, count in
                let records = UInt32(fixes.count)
                for index in 0..<4 { bytes[index] = UInt8(truncatingIfNeeded: records >> (24 - 8 * UInt32(index))) }
                count = 4
            }
            return DecodedFrame(length: total, kind: .position, fixes: fixes, reply: reply)
        }
    }

    /// The first frame of a connection: the 2-byte length and the IMEI.
    private mutating func handshake(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame? {
        guard bytes.count >= 2 else { return nil }
        let length = Int(bytes[0]) << 8 | Int(bytes[1])
        guard length > 0 else {
            throw FrameError(.notIdentified, "AVL data before the IMEI handshake", recovery: .closeConnection)
        }
        guard length <= Self.maxIMEILength else {
            throw FrameError(.garbage, "handshake length \(length) is not an IMEI's (at most \(Self.maxIMEILength))", recovery: .closeConnection)
        }
        guard bytes.count >= 2 + length else { return nil }
        let digits = UnsafeRawBufferPointer(rebasing: bytes[2..<(2 + length)])
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw FrameError(.malformed, "the handshake's IMEI is not all digits", recovery: .closeConnection)
        }
        let imei = String(decoding: digits, as: UTF8.self)
        deviceId = imei
        return DecodedFrame(length: 2 + length, kind: .login, announcedDeviceId: imei, reply: [0x01], refusalReply: [0x00])
    }
}
