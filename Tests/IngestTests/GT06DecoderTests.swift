import FixRecords
import Foundation
import GeoKit
import JSONKit
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct GT06DecoderTests {
    static let imei = "353419036066061"
    static let vectors = ProtocolVectors.vectors(protocol: "gt06")

    /// A session that has logged in, as the frames were captured mid-session.
    func loggedIn() -> GT06Decoder {
        var decoder = GT06Decoder()
        decoder.assumeIdentity(Self.imei)
        return decoder
    }

    /// Vectors we reject on purpose: their CRC does not match (Traccar does
    /// not check it; we drop the frame unanswered so the terminal resends),
    /// or the length byte does not match the frame (zero, or no `0D 0A`
    /// where it points), or a vendor layout (QH302R) puts the IMEI where the
    /// standard 0x12 frame has its GPS time.
    static let rejected: [String: FrameError.Reason] = [
        "gt06-037": .badChecksum, "gt06-039": .malformed, "gt06-053": .badChecksum, "gt06-167": .badChecksum,
        "gt06-169": .badChecksum, "gt06-175": .badChecksum, "gt06-077": .malformed, "gt06-161": .malformed,
        "gt06-101": .malformed, "gt06-103": .malformed, "gt06-105": .malformed, "gt06-107": .malformed,
        "gt06-179": .malformed,
    ]

    @Test(.enabled(if: ProtocolVectors.available, "../shared/data/protocols is absent"), arguments: vectors)
    func everyTraccarFrameDecodesWithItsAckOrIsRejectedOnPurpose(vector: ProtocolVector) throws {
        var decoder = loggedIn()
        let outcome = StreamDecoding.frames(vector.bytes, with: &decoder)
        if let reason = Self.rejected[vector.id] {
            StreamDecoding.expectRejection(outcome, as: reason, vector: vector.id)
            return
        }
        let frames = try outcome.get()
        guard vector.derivedExpect?["frame_ok"] == .bool(true) else {
            #expect(frames.isEmpty, "\(vector.id) is not a whole frame; the decoder must wait for more bytes")
            return
        }
        let frame = try #require(frames.first, "no frame from \(vector.id)")
        #expect(frame.length == vector.bytes.count)
        let ack = try #require(vector.derivedExpect?["ack_hex"]?.scalarText)
        #expect(StreamDecoding.hex(frame.reply) == ack)
        guard let type = vector.derivedExpect?["msg_type"]?.scalarText.flatMap({ UInt8($0.dropFirst(2), radix: 16) }),
            GT06Decoder.isLocation(type) || GT06Decoder.isAlarm(type)
        else { return }
        let expected = try #require(vector.derivedExpect)
        guard expected["lat"] != nil else { return }  // no GPS block: an empty keep-alive or a vendor layout
        let fix = try #require(frame.fixes.first, "no fix from \(vector.id)")
        #expect(fix.deviceId == Self.imei)
        #expect(abs(fix.latitude - (expected["lat"]?.number ?? .nan)) < 1e-5)
        #expect(abs(fix.longitude - (expected["lon"]?.number ?? .nan)) < 1e-5)
        #expect(fix.valid == (expected["valid"] == .bool(true)))
        #expect(fix.course == expected["course"]?.number)
        #expect(abs(fix.speedKmh - (expected["speed_knots"]?.number ?? .nan) * 1.852) < 0.01)
        let time = try #require(expected["time"]?.scalarText.flatMap(FixTime.date(iso8601:)))
        #expect(fix.time == time)
    }

    @Test func loginAnnouncesTheIMEIAndIsAcknowledged() throws {
        var decoder = GT06Decoder()
        let frames = try StreamDecoding.frames(ProtocolVectors.bytes(hex: "78780D0103534190360660610003C3DF0D0A"), with: &decoder).get()
        let login = try #require(frames.first)
        #expect(login.kind == .login)
        #expect(login.announcedDeviceId == "353419036066061")
        #expect(StreamDecoding.hex(login.reply) == "787805010003FACE0D0A")
        #expect(decoder.deviceId == "353419036066061")
    }

    @Test func theREADMEsLoginExampleGetsItsReply() throws {
        var decoder = GT06Decoder()
        let frames = try StreamDecoding.frames(ProtocolVectors.bytes(hex: "78780D01012345678901234500018CDD0D0A"), with: &decoder).get()
        #expect(frames.first?.announcedDeviceId == "123456789012345")
        #expect(StreamDecoding.hex(frames.first?.reply ?? []) == "787805010001D9DC0D0A")
    }

    @Test func aLocationBeforeLoginClosesTheConnection() {
        var decoder = GT06Decoder()
        let location = ProtocolVectors.bytes(hex: "787823120F081B121D37CB01C8E2CC08AFD3C020D50201940701D600A1190041EE100576D1470D0A")
        guard case .failure(let error) = StreamDecoding.frames(location, with: &decoder) else {
            Issue.record("decoded a location without a login")
            return
        }
        #expect(error.reason == .notIdentified)
        #expect(error.recovery == .closeConnection)
    }

    @Test func loginThenLocationsSplitAcrossReadsAndPackedInOne() throws {
        let login = ProtocolVectors.bytes(hex: "78780D0103534190360660610003C3DF0D0A")
        let location = ProtocolVectors.bytes(hex: "787823120F081B121D37CB01C8E2CC08AFD3C020D50201940701D600A1190041EE100576D1470D0A")
        let heartbeat = ProtocolVectors.bytes(hex: "78780A13C40604000201298F5B0D0A")
        let stream = login + location + heartbeat + location
        var dripped = GT06Decoder()
        let slow = try StreamDecoding.frames(drippedOneByteAtATime: stream, with: &dripped)
        var packed = GT06Decoder()
        let fast = try StreamDecoding.frames(stream, with: &packed).get()
        #expect(slow == fast)
        #expect(fast.map(\.kind) == [.login, .position, .heartbeat, .position])
        let fix = try #require(fast[1].fixes.first)
        #expect(fix.deviceId == "353419036066061")
        #expect(abs(fix.latitude - 16.634709) < 1e-6 && abs(fix.longitude - 80.967076) < 1e-6)
        #expect(fix.speedKmh == 32 && fix.course == 258 && fix.valid && fix.satellites == 11)
    }

    @Test func alarmsCarryTheirNamedCode() throws {
        var decoder = loggedIn()
        let vibration = ProtocolVectors.bytes(hex: "787825160F0C1D0A2B21C8027AC8040C46581000146F0901CC00287D001F714804040301001C84CF0D0A")
        let overspeed = ProtocolVectors.bytes(hex: "78782516110819110208D402F264DC08289A4058D4C70901944600D300C0954606040600014057E90D0A")
        let frames = try StreamDecoding.frames(vibration + overspeed, with: &decoder).get()
        #expect(frames.map(\.kind) == [.alarm, .alarm])
        #expect(frames.map { $0.fixes.first?.alarm } == ["vibration", "overspeed"])
    }

    @Test func garbageBeforeAFrameIsSkippedUpToTheFrameStart() throws {
        var decoder = GT06Decoder()
        let login = ProtocolVectors.bytes(hex: "78780D0103534190360660610003C3DF0D0A")
        let bytes: [UInt8] = [0x00, 0x78, 0x13, 0xFF, 0x0D, 0x0A] + login
        let error = bytes.withUnsafeBytes { raw in
            do throws(FrameError) { _ = try decoder.decodeFrame(raw); return nil as FrameError? } catch { return error }
        }
        #expect(error?.reason == .garbage)
        #expect(error?.recovery == .skip(6))
    }

    @Test func aWrongCRCDropsJustThatFrame() throws {
        var decoder = loggedIn()
        var location = ProtocolVectors.bytes(hex: "787823120F081B121D37CB01C8E2CC08AFD3C020D50201940701D600A1190041EE100576D1470D0A")
        location[10] ^= 0x01
        guard case .failure(let error) = StreamDecoding.frames(location, with: &decoder) else {
            Issue.record("accepted a corrupted frame")
            return
        }
        #expect(error.reason == .badChecksum)
        #expect(error.recovery == .skip(location.count))
    }

    @Test func aHugeLengthFieldIsRefusedBeforeWaitingForIt() {
        var decoder = loggedIn()
        guard case .failure(let error) = StreamDecoding.frames([0x79, 0x79, 0xFF, 0xFF, 0x12], with: &decoder) else {
            Issue.record("waited for a 64 KiB frame")
            return
        }
        #expect(error.reason == .oversized)
    }

    @Test func randomBytesNeverCrashAndAlwaysMakeProgress() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var decoder = loggedIn()
            let bytes = (0..<Int.random(in: 1...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var offset = 0
            decoding: while offset < bytes.count {
                let outcome: Result<DecodedFrame?, FrameError> = bytes[offset...].withUnsafeBytes { raw in
                    do throws(FrameError) { return .success(try decoder.decodeFrame(raw)) } catch { return .failure(error) }
                }
                switch outcome {
                case .success(nil): break decoding
                case .success(let frame?): offset += frame.length
                case .failure(let error):
                    guard case .skip(let count) = error.recovery else { break decoding }
                    #expect(count > 0)
                    offset += count
                }
            }
        }
    }
}
