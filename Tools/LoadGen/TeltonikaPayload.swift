import Foundation
import Ingest
import NIOCore

/// Teltonika Codec 8 AVL data (Sources/Ingest/TeltonikaAVLData.swift),
/// shared by the TCP and UDP framings: `08 | N | N records | N`.
enum TeltonikaPayload {
    /// Codec 8, the FMB family's default.
    static let codec8: UInt8 = 0x08

    /// The AVL data field for `fixes` (at most 255). Each record: timestamp
    /// ms, priority 0, longitude and latitude signed × 10^7, altitude,
    /// angle, satellites (non-zero: a valid fix), speed km/h, and an IO
    /// element with zero counts.
    static func avlData(_ fixes: [GeneratedFix]) -> [UInt8] {
        var data: [UInt8] = [codec8, UInt8(fixes.count)]
        data.reserveCapacity(3 + 30 * fixes.count)
        for fix in fixes {
            append(UInt64((fix.time.timeIntervalSince1970 * 1000).rounded()), width: 8, to: &data)
            data.append(0)
            append(UInt64(UInt32(bitPattern: Int32((fix.longitude * 10_000_000).rounded()))), width: 4, to: &data)
            append(UInt64(UInt32(bitPattern: Int32((fix.latitude * 10_000_000).rounded()))), width: 4, to: &data)
            append(40, width: 2, to: &data)
            append(UInt64(Int(fix.heading.rounded()) % 360), width: 2, to: &data)
            data.append(9)
            append(UInt64(fix.speedKmh.rounded()), width: 2, to: &data)
            data += [0, 0, 0, 0, 0, 0]
        }
        data.append(UInt8(fixes.count))
        return data
    }

    /// Appends the low `width` bytes of `value`, big-endian.
    static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in stride(from: width - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}

/// One simulated Teltonika device on TCP (Sources/Ingest/TeltonikaDecoder.swift):
/// the `00 0F IMEI` handshake answered by `01`, then AVL packets
/// `00000000 | length | AVL data | CRC-16/IBM in 4 bytes`, each answered by
/// its record count in 4 bytes. Answers carry no packet id, so they
/// acknowledge the packets in the order sent.
struct TeltonikaStreamCodec: StreamDeviceCodec {
    /// The device's 15-digit IMEI.
    let imei: String
    /// Keys of the packets not yet answered, oldest first from `head`.
    private var unanswered: [UInt64] = []
    private var head = 0
    /// Reply bytes not yet forming a whole 4-byte record count.
    private var pending: [UInt8] = []

    var acknowledges: Bool { true }

    /// A device identified by `imei` (15 digits).
    init(imei: String) {
        self.imei = imei
    }

    /// The IMEI handshake: its length in 2 bytes, then the ASCII digits.
    mutating func opening() -> [UInt8] {
        [0x00, UInt8(imei.utf8.count)] + Array(imei.utf8)
    }

    /// `01` accepts the device, `00` refuses it.
    mutating func openingAccepted(_ bytes: inout [UInt8]) -> Bool? {
        guard let answer = bytes.first else { return nil }
        bytes.removeFirst()
        return answer == 0x01
    }

    /// One AVL packet carrying every fix of `fixes`; the key is `sequence`.
    mutating func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        let data = TeltonikaPayload.avlData(fixes)
        buffer.writeInteger(UInt32(0))
        buffer.writeInteger(UInt32(data.count))
        buffer.writeBytes(data)
        buffer.writeInteger(UInt32(data.withUnsafeBytes { CRC16.ibm($0) }))
        unanswered.append(sequence)
        return sequence
    }

    /// One packet key per whole 4-byte answer in `bytes`, in the order sent.
    mutating func acknowledged(in bytes: ByteBufferView) -> [UInt64] {
        pending += bytes
        let answers = min(pending.count / 4, unanswered.count - head)
        pending.removeFirst(answers * 4)
        let keys = Array(unanswered[head..<(head + answers)])
        head += answers
        if head > 1024 {
            unanswered.removeFirst(head)
            head = 0
        }
        return keys
    }
}

/// Teltonika over UDP (Sources/Ingest/TeltonikaDatagramDecoder.swift): one
/// datagram `length | packet id | 01 | AVL packet id | 00 0F IMEI | AVL data`
/// per message, answered by `00 05 | packet id | 01 | AVL packet id | count`;
/// the packet id (the low 16 bits of the sequence) matches answers to datagrams.
struct TeltonikaDatagramCodec: DatagramDeviceCodec {
    /// The datagram carrying `fixes` of one device; the key is its packet id.
    func write(_ fixes: [GeneratedFix], sequence: UInt64, into buffer: inout ByteBuffer) -> UInt64 {
        let imei = Array(fixes[0].deviceId.utf8)
        let data = TeltonikaPayload.avlData(fixes)
        let packetId = UInt16(truncatingIfNeeded: sequence)
        buffer.writeInteger(UInt16(2 + 1 + 1 + 2 + imei.count + data.count))
        buffer.writeInteger(packetId)
        buffer.writeInteger(UInt8(0x01))
        buffer.writeInteger(UInt8(truncatingIfNeeded: sequence))
        buffer.writeInteger(UInt16(imei.count))
        buffer.writeBytes(imei)
        buffer.writeBytes(data)
        return UInt64(packetId)
    }

    /// The packet id of an answer, if `datagram` is one.
    func acknowledged(in datagram: ByteBufferView) -> [UInt64] {
        let bytes = Array(datagram)
        guard bytes.count == 7, bytes[0] == 0x00, bytes[1] == 0x05 else { return [] }
        return [UInt64(bytes[2]) << 8 | UInt64(bytes[3])]
    }
}
