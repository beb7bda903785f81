import Fleet
import Foundation
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct LineProtocolDecoderTests {
    func outcome(_ text: String) -> Result<DecodedFrame?, FrameError> {
        var decoder = LineProtocolDecoder()
        return Array(text.utf8).withUnsafeBytes { raw in
            do throws(FrameError) {
                return .success(try decoder.decodeFrame(raw))
            } catch {
                return .failure(error)
            }
        }
    }

    func decode(_ text: String) throws -> DecodedFrame? {
        try outcome(text).get()
    }

    func reason(_ text: String) -> FrameError? {
        if case .failure(let error) = outcome(text) { return error }
        return nil
    }

    @Test func aFixLineDecodesEveryField() throws {
        let frame = try #require(try decode("MT1,TAXI-42,17,2026-11-23T08:00:05.250Z,40.758896,-73.985130,23.5,271,A,alt=12,sat=9,batt=81\r\n"))
        #expect(frame.length == 94)
        #expect(frame.kind == .position)
        #expect(frame.reply == Array("ACK,17\n".utf8))
        let fix = try #require(frame.fixes.first)
        #expect(fix.deviceId == "TAXI-42")
        #expect(fix.time == Date(timeIntervalSince1970: 1_795_420_805.25))
        #expect(fix.latitude == 40.758896)
        #expect(fix.longitude == -73.98513)
        #expect(fix.speedKmh == 23.5)
        #expect(fix.course == 271)
        #expect(fix.valid)
        #expect(fix.altitude == 12)
        #expect(fix.satellites == 9)
        #expect(fix.batteryPercent == 81)
    }

    @Test func unixSecondsAndNoGPSLockAreAccepted() throws {
        let fix = try #require(try decode("MT1,D1,1,1795420805,43.7384,7.4246,0,0,V\n")?.fixes.first)
        #expect(fix.time == Date(timeIntervalSince1970: 1_795_420_805))
        #expect(!fix.valid)
    }

    @Test func aPingIsAHeartbeatThatIsAcknowledged() throws {
        let frame = try #require(try decode("MT1,D1,99,PING\n"))
        #expect(frame.kind == .heartbeat)
        #expect(frame.fixes.isEmpty)
        #expect(frame.reply == Array("ACK,99\n".utf8))
    }

    /// `MT1,<deviceId>,<seq>,LOGIN,<secret>`: a login naming its device and
    /// presenting its secret, answered like any line.
    @Test func aLoginLinePresentsTheDevicesSecret() throws {
        let frame = try #require(try decode("MT1,TAXI-42,1,LOGIN,s3cret-Taxi-42\r\n"))
        #expect(frame.kind == .login)
        #expect(frame.length == 36)
        #expect(frame.announcedDeviceId == "TAXI-42")
        #expect(frame.presentedSecret == DeviceSecret(presented: "s3cret-Taxi-42"))
        #expect(frame.presentedSecret != DeviceSecret(presented: "s3cret-Taxi-43"))
        #expect(frame.fixes.isEmpty)
        #expect(frame.reply == Array("ACK,1\n".utf8))
        #expect(frame.refusalReply == nil, "a refused login is closed without a word")
    }

    /// A fix line presents no secret: old terminals' lines decode as before.
    @Test func aFixLinePresentsNoSecret() throws {
        let frame = try #require(try decode("MT1,TAXI-42,17,2026-11-23T08:00:05Z,40.758896,-73.985130,23.5,271,A\n"))
        #expect(frame.presentedSecret == nil)
        #expect(frame.announcedDeviceId == nil)
    }

    /// A bad login is skipped and named, and its message never quotes the secret.
    @Test(arguments: [
        ("MT1,TAXI-42,1,LOGIN\n", "field 5 (secret) is missing"),
        ("MT1,TAXI-42,1,LOGIN,\n", "field 5 (secret) of a LOGIN line must be 1 to 64 characters"),
        ("MT1,TAXI-42,1,LOGIN,\(String(repeating: "s", count: 65))\n", "field 5 (secret) of a LOGIN line must be 1 to 64 characters"),
        ("MT1,TAXI-42,1,LOGIN,s3cret-Taxi,42\n", "a LOGIN line ends after its secret"),
    ])
    func aBadLoginLineIsSkippedWithoutQuotingTheSecret(line: String, message: String) throws {
        let error = try #require(self.reason(line))
        #expect(error.reason == .malformed)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(!error.message.contains("s3cret") && !error.message.contains("sssss"), "\(error.message)")
        #expect(error.recovery == .skip(line.utf8.count))
    }

    /// A datagram carries its own credentials: a LOGIN line among its fix lines.
    @Test func aDatagramMayCarryALoginBeforeItsFixes() throws {
        let text = "MT1,D1,1,LOGIN,s3cret-D1-000\nMT1,D1,2,2026-11-23T08:00:00Z,43.7,7.4,10,90,A\n"
        let frame = try Array(text.utf8).withUnsafeBytes { raw in try LineProtocolDecoder.decodeDatagram(raw) }
        #expect(frame.kind == .position)
        #expect(frame.announcedDeviceId == "D1")
        #expect(frame.presentedSecret == DeviceSecret(presented: "s3cret-D1-000"))
        #expect(frame.fixes.map(\.deviceId) == ["D1"])
        #expect(frame.reply == Array("ACK,1\nACK,2\n".utf8))
    }

    @Test func aDatagramWithTwoLoginsIsRefused() {
        let text = "MT1,D1,1,LOGIN,s3cret-D1-000\nMT1,D2,2,LOGIN,s3cret-D2-000\n"
        let outcome = Array(text.utf8).withUnsafeBytes { raw -> FrameError? in
            do throws(FrameError) {
                _ = try LineProtocolDecoder.decodeDatagram(raw)
                return nil
            } catch {
                return error
            }
        }
        #expect(outcome?.reason == .malformed)
        #expect(outcome?.message.contains("one LOGIN line") == true)
    }

    @Test func anIncompleteLineWaitsForMoreBytes() throws {
        let line = "MT1,D1,1,2026-11-23T08:00:00Z,43.7384,7.4246,10,90,A\n"
        for cut in 0..<(line.utf8.count - 1) {
            #expect(try decode(String(line.utf8.prefix(cut))!) == nil)
        }
        #expect(try decode(line) != nil)
    }

    @Test(arguments: [
        ("MT2,D1,1,2026-11-23T08:00:00Z,43.7,7.4,10,90,A\n", FrameError.Reason.garbage, "MT1"),
        ("MT1,,1,2026-11-23T08:00:00Z,43.7,7.4,10,90,A\n", .malformed, "field 2 (device id)"),
        ("MT1,D1,x,2026-11-23T08:00:00Z,43.7,7.4,10,90,A\n", .malformed, "field 3 (seq) 'x'"),
        ("MT1,D1,1,yesterday,43.7,7.4,10,90,A\n", .malformed, "field 4 (time) 'yesterday'"),
        ("MT1,D1,1,2026-11-23T08:00:00Z,91.5,7.4,10,90,A\n", .malformed, "field 5 (lat) '91.5' is out of range -90...90"),
        ("MT1,D1,1,2026-11-23T08:00:00Z,43.7,abc,10,90,A\n", .malformed, "field 6 (lon) 'abc' is not a number"),
        ("MT1,D1,1,2026-11-23T08:00:00Z,43.7,7.4,10,400,A\n", .malformed, "field 8 (heading)"),
        ("MT1,D1,1,2026-11-23T08:00:00Z,43.7,7.4,10,90,X\n", .malformed, "field 9 (validity) must be A or V"),
        ("MT1,D1,1,2026-11-23T08:00:00Z,43.7,7.4,10\n", .malformed, "field 8 (heading) is missing"),
    ])
    func aBadLineNamesItsFieldAndIsSkipped(line: String, reason: FrameError.Reason, message: String) throws {
        let error = try #require(self.reason(line))
        #expect(error.reason == reason)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.recovery == .skip(line.utf8.count))
    }

    @Test func aLineWithoutEndClosesTheConnection() throws {
        let error = try #require(reason(String(repeating: "A", count: 600)))
        #expect(error.reason == .oversized)
        #expect(error.recovery == .closeConnection)
    }

    @Test func aDatagramMayCarrySeveralLines() throws {
        let text = "MT1,D1,1,2026-11-23T08:00:00Z,43.7,7.4,10,90,A\nMT1,D1,2,2026-11-23T08:00:30Z,43.71,7.41,12,91,A"
        let frame = try Array(text.utf8).withUnsafeBytes { raw in try LineProtocolDecoder.decodeDatagram(raw) }
        #expect(frame.fixes.count == 2)
        #expect(frame.reply == Array("ACK,1\nACK,2\n".utf8))
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : Array("MT1,.-:0123456789AV\n".utf8).randomElement(using: &generator)!
            }
            var decoder = LineProtocolDecoder()
            var offset = 0
            while offset < bytes.count {
                let step: Int? = bytes[offset...].withUnsafeBytes { raw in
                    do throws(FrameError) {
                        return try decoder.decodeFrame(raw)?.length
                    } catch {
                        if case .skip(let count) = error.recovery { return count }
                        return nil
                    }
                }
                guard let step, step > 0 else { break }
                offset += step
            }
        }
    }

    /// Found by the fuzzer: Unix seconds that are finite but whose
    /// milliseconds do not fit an Int64 (they trapped in `mytaxi decode`), and
    /// every other number that is not finite.
    @Test(arguments: [
        "MT1,TAXI-42,18,179542081795420810,40.7589,-73.9852,20,270,A\n",
        "MT1,TAXI-42,18,nan,40.7589,-73.9852,20,270,A\n",
        "MT1,TAXI-42,18,1795420810,nan,-73.9852,20,270,A\n",
        "MT1,TAXI-42,18,1795420810,40.7589,inf,20,270,A\n",
        "MT1,TAXI-42,18,1795420810,40.7589,-73.9852,1e400,270,A\n",
        "MT1,TAXI-42,18,1795420810,40.7589,-73.9852,20,-inf,A\n",
    ])
    func aTimeBeyondTheYear9999OrANonFiniteNumberIsMalformed(line: String) {
        #expect(reason(line)?.reason == .malformed, "\(line)")
    }

    /// Optional values that are not finite numbers are left out, never kept.
    @Test func nonFiniteOptionalValuesAreLeftOut() throws {
        let frame = try #require(try decode("MT1,TAXI-42,18,1795420810,40.7589,-73.9852,20,270,A,alt=nan,acc=inf,batt=1e400\n"))
        let fix = try #require(frame.fixes.first)
        #expect(fix.altitude == nil && fix.accuracy == nil && fix.batteryPercent == nil)
    }

    /// Found by the fuzzer: a satellite count beyond Int trapped the server
    /// (one datagram was enough). It is left out instead, like every
    /// optional value that is not plausible.
    @Test func aSatelliteCountBeyondReasonIsLeftOutNotATrap() throws {
        let frame = try #require(try decode("MT1,TAXI-42,18,1795420810,40.7589,-73.9852,20,270,A,sat=18446744073709551615\n"))
        #expect(frame.fixes.first?.satellites == nil)
        let plausible = try #require(try decode("MT1,TAXI-42,19,1795420811,40.7589,-73.9852,20,270,A,sat=12\n"))
        #expect(plausible.fixes.first?.satellites == 12)
    }
}
