import FixRecords
import Foundation
import GeoKit
import JSONKit
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct TeltonikaDecoderTests {
    static let imei = "123456789012345"
    static let handshake = ProtocolVectors.bytes(hex: "000F313233343536373839303132333435")
    static let vectors = ProtocolVectors.vectors(protocol: "teltonika")

    /// Vectors rejected on purpose: a CRC that does not match the data
    /// (dropped unanswered, the device resends), a packet with no data, and
    /// an FMB130 packet whose IO counts do not add up to its total (Traccar
    /// decodes it only with that model's override).
    static let rejected: [String: FrameError.Reason] = [
        "teltonika-021": .badChecksum, "teltonika-023": .badChecksum, "teltonika-015": .badChecksum,
        "teltonika-051": .badChecksum, "teltonika-029": .malformed, "teltonika-047": .malformed,
    ]

    @Test(.enabled(if: ProtocolVectors.available, "../shared/data/protocols is absent"), arguments: vectors)
    func everyTraccarFrameDecodesWithItsAckOrIsRejectedOnPurpose(vector: ProtocolVector) throws {
        var decoder = TeltonikaDecoder()
        if vector.derivedExpect?["frame"]?.scalarText != "imei-handshake" { decoder.assumeIdentity(Self.imei) }
        let outcome = StreamDecoding.frames(vector.bytes, with: &decoder)
        if let reason = Self.rejected[vector.id] {
            StreamDecoding.expectRejection(outcome, as: reason, vector: vector.id)
            return
        }
        let frames = try outcome.get()
        guard vector.derivedExpect?["data_length_ok"] != .bool(false) else {
            #expect(frames.isEmpty, "\(vector.id) announces more data than it has; the decoder must wait")
            return
        }
        let frame = try #require(frames.first, "no frame from \(vector.id)")
        #expect(frame.length == vector.bytes.count)
        let ack = vector.derivedExpect?["ack_hex"]?.scalarText ?? ""
        #expect(StreamDecoding.hex(frame.reply) == ack)
        guard case .array(let positions)? = vector.derivedExpect?["positions"] else {
            #expect(frame.fixes.isEmpty)
            return
        }
        #expect(frame.fixes.count == positions.count)
        for (fix, expected) in zip(frame.fixes, positions) {
            #expect(fix.deviceId == Self.imei)
            #expect(abs(fix.latitude - (expected["lat"]?.number ?? .nan)) < 1e-6)
            #expect(abs(fix.longitude - (expected["lon"]?.number ?? .nan)) < 1e-6)
            #expect(fix.altitude == expected["altitude"]?.number)
            #expect(fix.course == expected["course"]?.number)
            #expect(fix.satellites.map(Double.init) == expected["satellites"]?.number)
            #expect(fix.speedKmh == expected["speed_kmh"]?.number)
            #expect(fix.valid == (expected["valid"] == .bool(true)))
            let time = try #require(expected["time"]?.scalarText.flatMap(FixTime.date(iso8601:)))
            #expect(abs(fix.time.timeIntervalSince(time)) < 0.0005)
        }
    }

    @Test func theHandshakeAnnouncesTheIMEIWithAcceptAndRefusalBytes() throws {
        var decoder = TeltonikaDecoder()
        let frames = try StreamDecoding.frames(Self.handshake, with: &decoder).get()
        let login = try #require(frames.first)
        #expect(login.kind == .login)
        #expect(login.announcedDeviceId == Self.imei)
        #expect(login.reply == [0x01])
        #expect(login.refusalReply == [0x00])
    }

    /// teltonika-019: one Codec 8 record (Vienna, 83 km/h).
    static let codec8Packet = ProtocolVectors.bytes(
        hex: "000000000000004C08010000016818D500580009C28D9F1CB3757A00BE00C60F0053000F06F0011503C80001011D00FC0007423799180053CDF80DCE426F430F88190BB8560BB802F100005AA110002887E000010000EE8D")

    @Test func handshakePingAndPacketsSplitAcrossReadsAndPackedInOne() throws {
        let stream = Self.handshake + [0xFF] + Self.codec8Packet + [0xFF] + Self.codec8Packet
        var dripped = TeltonikaDecoder()
        let slow = try StreamDecoding.frames(drippedOneByteAtATime: stream, with: &dripped)
        var packed = TeltonikaDecoder()
        let fast = try StreamDecoding.frames(stream, with: &packed).get()
        #expect(slow == fast)
        #expect(fast.map(\.kind) == [.login, .heartbeat, .position, .heartbeat, .position])
        #expect(fast[1].reply.isEmpty)
        #expect(fast[2].reply == [0, 0, 0, 1])
        let fix = try #require(fast[2].fixes.first)
        #expect(fix.deviceId == Self.imei)
        #expect(abs(fix.latitude - 48.152307) < 1e-6 && abs(fix.longitude - 16.374518) < 1e-6)
        #expect(fix.speedKmh == 83 && fix.course == 198 && fix.satellites == 15 && fix.altitude == 190)
    }

    @Test func dataBeforeTheHandshakeClosesTheConnection() {
        var decoder = TeltonikaDecoder()
        guard case .failure(let error) = StreamDecoding.frames(Self.codec8Packet, with: &decoder) else {
            Issue.record("decoded AVL data without an IMEI")
            return
        }
        #expect(error.reason == .notIdentified)
        #expect(error.recovery == .closeConnection)
    }

    @Test func aHugeDataLengthIsRefusedBeforeWaitingForIt() {
        var decoder = TeltonikaDecoder()
        decoder.assumeIdentity(Self.imei)
        guard case .failure(let error) = StreamDecoding.frames([0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0x08], with: &decoder) else {
            Issue.record("waited for 2 GiB")
            return
        }
        #expect(error.reason == .oversized)
        #expect(error.recovery == .closeConnection)
    }

    @Test func aHandshakeThatIsNotAnIMEIClosesTheConnection() {
        var decoder = TeltonikaDecoder()
        guard case .failure(let error) = StreamDecoding.frames(Array("GET / HTTP/1.1\r\n".utf8), with: &decoder) else {
            Issue.record("took an HTTP request for a handshake")
            return
        }
        #expect(error.reason == .garbage)
    }

    /// A UDP datagram around the AVL data of `codec8Packet`.
    static func datagram(packetId: UInt16, avlPacketId: UInt8, imei: String = imei) -> [UInt8] {
        let data = Array(codec8Packet[8..<(codec8Packet.count - 4)])
        let body: [UInt8] = [UInt8(packetId >> 8), UInt8(packetId & 0xFF), 0x01, avlPacketId]
            + [0x00, UInt8(imei.utf8.count)] + Array(imei.utf8) + data
        return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    @Test func aUDPDatagramDecodesLikeTheTCPPacketAndEchoesItsIds() throws {
        let frame = try Self.datagram(packetId: 0xCAFE, avlPacketId: 0x22).withUnsafeBytes { raw throws(FrameError) in
            try TeltonikaDatagramDecoder.decodeDatagram(raw)
        }
        var tcp = TeltonikaDecoder()
        tcp.assumeIdentity(Self.imei)
        let tcpFrame = try #require(try StreamDecoding.frames(Self.codec8Packet, with: &tcp).get().first)
        #expect(frame.fixes == tcpFrame.fixes)
        #expect(frame.announcedDeviceId == Self.imei)
        #expect(StreamDecoding.hex(frame.reply) == "0005CAFE012201")
    }

    @Test func aUDPDatagramWithAWrongLengthIsRejected() {
        var bytes = Self.datagram(packetId: 1, avlPacketId: 1)
        bytes.removeLast()
        let error = bytes.withUnsafeBytes { raw in
            do throws(FrameError) { _ = try TeltonikaDatagramDecoder.decodeDatagram(raw); return nil as FrameError? } catch { return error }
        }
        #expect(error?.reason == .malformed)
    }

    /// Two Codec 8 records with 1-, 2- and 8-byte IO elements: the battery
    /// level (IO 113) is read and the wider groups are stepped over exactly.
    @Test func ioElementsAreWalkedAndTheBatteryLevelRead() throws {
        func record(seconds: UInt64, battery: UInt8) -> [UInt8] {
            let milliseconds = seconds * 1000
            var bytes: [UInt8] = (0..<8).map { UInt8(milliseconds >> (56 - 8 * UInt64($0)) & 0xFF) }
            let position: [UInt8] = [0, 0x0C, 0x2A, 0x5B, 0x2C, 0x1C, 0xB3, 0x75, 0x7A, 0x00, 0xBE, 0x00, 0xC6, 0x0F, 0x00, 0x53]
            let oneByteGroup: [UInt8] = [0x00, 0x04, 2, 0xEF, 0x01, 0x71, battery]
            let widerGroups: [UInt8] = [1, 0x42, 0x30, 0x39, 0, 1, 0x4E, 1, 2, 3, 4, 5, 6, 7, 8]
            bytes += position
            bytes += oneByteGroup
            bytes += widerGroups
            return bytes
        }
        let data: [UInt8] = [0x08, 2] + record(seconds: 1_700_000_000, battery: 85) + record(seconds: 1_700_000_030, battery: 84) + [2]
        let crc = data.withUnsafeBytes { CRC16.ibm($0) }
        let packet: [UInt8] = [0, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data + [0, 0, UInt8(crc >> 8), UInt8(crc & 0xFF)]
        var decoder = TeltonikaDecoder()
        decoder.assumeIdentity(Self.imei)
        let frame = try #require(try StreamDecoding.frames(packet, with: &decoder).get().first)
        #expect(frame.fixes.map(\.batteryPercent) == [85, 84])
        #expect(frame.fixes.map(\.time) == [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 1_700_000_030)])
        #expect(frame.fixes.allSatisfy { $0.speedKmh == 83 && $0.satellites == 15 })
        #expect(frame.reply == [0, 0, 0, 2])
    }
}
