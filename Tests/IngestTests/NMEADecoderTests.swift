import Foundation
import GeoKit
import JSONKit
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct NMEADecoderTests {
    /// Decodes `text` on one connection; the frames or the first error.
    func decode(_ text: String) -> Result<[DecodedFrame], FrameError> {
        var decoder = NMEADecoder()
        return StreamDecoding.frames(Array(text.utf8), with: &decoder)
    }

    static let transmitted = ProtocolVectors.vectors(protocol: "nmea-gprmc").filter { $0.kind == "text" }
    /// Vectors rejected on purpose, with the reason: a checksum that does not
    /// match (we verify it, Traccar does not), a sentence without a
    /// longitude hemisphere (no position can be trusted).
    static let rejected: [String: FrameError.Reason] = [
        "nmea-gprmc-005": .badChecksum, "nmea-gprmc-049": .badChecksum, "nmea-gprmc-053": .badChecksum,
        "nmea-gprmc-029": .badChecksum, "nmea-gprmc-037": .malformed,
    ]

    @Test(.enabled(if: ProtocolVectors.available, "../shared/data/protocols is absent"), arguments: transmitted)
    func everyTraccarSentenceDecodesOrIsRejectedOnPurpose(vector: ProtocolVector) throws {
        // Sentences without an identifier of their own follow an identifier line.
        let outcome = decode("TAXI-7\r\n" + vector.payload + "\r\n")
        if let reason = Self.rejected[vector.id] {
            StreamDecoding.expectRejection(outcome, as: reason, vector: vector.id)
            return
        }
        let frames = try outcome.get()
        let fix = try #require(frames.last?.fixes.first, "no fix from \(vector.id)")
        let expected = try #require(vector.expect ?? vector.derivedExpect)
        #expect(abs(fix.latitude - (expected["lat"]?.number ?? .nan)) < 1e-5)
        #expect(abs(fix.longitude - (expected["lon"]?.number ?? .nan)) < 1e-5)
        #expect(fix.valid == (expected["valid"] == .bool(true)))
        let time = try #require(expected["time"]?.scalarText)
        #expect(abs(fix.time.timeIntervalSince1970 - (try Date(time, strategy: .iso8601).timeIntervalSince1970)) < 0.001)
        if let knots = vector.derivedExpect?["speed_knots"]?.number {
            #expect(abs(fix.speedKmh - knots * 1.852) < 1e-6)
        }
        let prefix = vector.derivedExpect?["device_id_prefix"]?.scalarText
        #expect(fix.deviceId != "TAXI-7" || prefix == nil, "\(vector.id) has its own identifier")
    }

    @Test func ourDocumentedFormCarriesTheDevice() throws {
        let frames = try decode("TAXI-42,$GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A*4F\r\n").get()
        let fix = try #require(frames.first?.fixes.first)
        #expect(fix.deviceId == "TAXI-42")
        #expect(abs(fix.latitude - 40.758897) < 1e-6)
        #expect(abs(fix.longitude - -73.98513) < 1e-6)
        #expect(abs(fix.speedKmh - 23.15) < 1e-9)
        #expect(fix.time == Date(timeIntervalSince1970: 1_795_420_805.25))
        #expect(frames.first?.reply == [])
    }

    @Test func aWrongChecksumIsRejectedAndTheLineSkipped() {
        let line = "TAXI-42,$GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A*7D\r\n"
        guard case .failure(let error) = decode(line) else {
            Issue.record("accepted a bad checksum")
            return
        }
        #expect(error.reason == .badChecksum)
        #expect(error.recovery == .skip(line.utf8.count))
    }

    @Test func aSentenceWithoutAnyIdentifierIsNotIdentified() {
        guard case .failure(let error) = decode("$GPRMC,154403.000,A,6311.64120,N,01438.02740,E,0.000,0.0,270707,,*0A\n") else {
            Issue.record("accepted a sentence without a device")
            return
        }
        #expect(error.reason == .notIdentified)
    }

    @Test func southAndWestAreNegative() throws {
        let fix = try #require(try decode("D1,$GPRMC,120000,A,3346.4463,S,05057.3083,W,0,0,010911,,\n").get().first?.fixes.first)
        #expect(fix.latitude < 0 && fix.longitude < 0)
    }

    @Test func anIncompleteLineWaitsAndAnEndlessOneCloses() {
        #expect((try? decode("D1,$GPRMC,120000,A,3346.4463,S").get())?.isEmpty == true)
        guard case .failure(let error) = decode(String(repeating: "x", count: 2000)) else {
            Issue.record("accepted 2,000 bytes without a line end")
            return
        }
        #expect(error.recovery == .closeConnection)
    }

    /// `$<body>*hh` with the checksum the body needs, in upper or lower case.
    static func sentence(_ body: String, lowercaseChecksum: Bool = false) -> String {
        let checksum = String(body.utf8.reduce(UInt8(0), ^), radix: 16, uppercase: !lowercaseChecksum)
        return "$" + body + "*" + (checksum.count == 1 ? "0" : "") + checksum
    }

    /// The single fix of `text`, which must decode.
    func fix(_ text: String) throws -> DeviceFix {
        let frames = try decode(text).get()
        return try #require(frames.last?.fixes.first, "no fix in \(text)")
    }

    @Test func aLowerCaseChecksumIsVerifiedToo() throws {
        let body = "GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A"
        let sentence = Self.sentence(body, lowercaseChecksum: true)
        #expect(sentence.hasSuffix("*4f"))
        #expect(try fix("TAXI-42," + sentence + "\r\n").deviceId == "TAXI-42")
        guard case .failure(let error) = decode("TAXI-42,$" + body + "*7d\r\n") else {
            Issue.record("accepted a bad lower-case checksum")
            return
        }
        #expect(error.reason == .badChecksum)
        #expect(error.message == "NMEA checksum *7d does not match the sentence (computed 4F)")
    }

    @Test(arguments: ["", "*", "*4", "*G1", "*4F"])
    func aMissingOrUnreadableChecksumIsNotChecked(tail: String) throws {
        let fix = try fix("D1,$GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A\(tail)\n")
        #expect(abs(fix.latitude - 40.758897) < 1e-6)
    }

    @Test func aSingleDigitChecksumIsPaddedInTheMessage() {
        // XOR of this body is 0x0A; a wrong "*FF" names the computed value as 0A.
        let body = "GPRMC,000000,V,0000.0000,N,00000.0000,E,,,010100,,"
        #expect(Self.sentence(body).hasSuffix("*0A"))
        guard case .failure(let error) = decode("D1,$" + body + "*FF\n") else {
            Issue.record("accepted a bad checksum")
            return
        }
        #expect(error.message.hasSuffix("(computed 0A)"))
    }

    @Test func noFixIsDecodedAsInvalidAndEmptySpeedAndCourseAreZero() throws {
        let fix = try fix("D1," + Self.sentence("GPRMC,120000,V,4045.5338,N,07359.1078,W,,,231126,,,N") + "\r\n")
        #expect(fix.valid == false)
        #expect(fix.speedKmh == 0)
        #expect(fix.course == 0)
    }

    @Test func noFixWithoutCoordinatesIsMalformedNamingTheLatitude() {
        let line = "D1," + Self.sentence("GPRMC,120000,V,,,,,,,231126,,,N") + "\r\n"
        guard case .failure(let error) = decode(line) else {
            Issue.record("made a fix without coordinates")
            return
        }
        #expect(error.reason == .malformed)
        #expect(error.message == "RMC latitude ',' is not ddmm.mmmm,N|S")
        #expect(error.recovery == .skip(line.utf8.count))
    }

    @Test(arguments: [
        ("N", "E", 33.774105, 150.954305), ("S", "E", -33.774105, 150.954305),
        ("N", "W", 33.774105, -150.954305), ("S", "W", -33.774105, -150.954305),
    ])
    func everyHemisphereSetsItsSign(northSouth: String, eastWest: String, latitude: Double, longitude: Double) throws {
        let fix = try fix("D1,$GPRMC,120000,A,3346.4463,\(northSouth),15057.2583,\(eastWest),0,0,010911,,\n")
        #expect(abs(fix.latitude - latitude) < 1e-6)
        #expect(abs(fix.longitude - longitude) < 1e-6)
    }

    @Test(arguments: [("080005", 0.0), ("080005.5", 0.5), ("080005.25", 0.25), ("080005.250", 0.25), ("080005.", 0.0)])
    func fractionsOfASecondAreKept(time: String, fraction: Double) throws {
        let fix = try fix("D1,$GPRMC,\(time),A,4045.5338,N,07359.1078,W,0,0,231126,,\n")
        #expect(fix.time == Date(timeIntervalSince1970: 1_795_420_805 + fraction))
    }

    @Test func aSentenceDrippedByteByByteDecodesOnceComplete() throws {
        var decoder = NMEADecoder()
        let text = "TAXI-7\r\n" + Self.sentence("GPRMC,080005.250,A,4045.5338,N,07359.1078,W,12.5,271.0,231126,,,A") + "\r\n"
        let frames = try StreamDecoding.frames(drippedOneByteAtATime: Array(text.utf8), with: &decoder)
        #expect(frames.map(\.kind) == [.login, .position])
        #expect(frames.last?.fixes.first?.deviceId == "TAXI-7")
    }

    @Test func severalSentencesInOneReadAreEachAFrame() throws {
        let first = "A1,$GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,231126,,\r\n"
        let second = "A2,$GNRMC,080006,A,4045.5338,N,07359.1078,W,0,0,231126,,\n"
        let frames = try decode(first + "\r\n" + second).get()
        #expect(frames.map(\.kind) == [.position, .heartbeat, .position])
        #expect(frames.map(\.length) == [first.utf8.count, 2, second.utf8.count])
        #expect(frames.compactMap(\.fixes.first?.deviceId) == ["A1", "A2"])
    }

    @Test func aLineUpToTheLimitIsReadAndOneByteMoreCloses() {
        let padding = String(repeating: ",", count: NMEADecoder.maxLineLength)
        let sentence = "D1,$GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,231126"
        let fitting = sentence + padding.prefix(NMEADecoder.maxLineLength - sentence.utf8.count - 1) + "\n"
        #expect(fitting.utf8.count == NMEADecoder.maxLineLength)
        #expect((try? decode(fitting).get())?.first?.fixes.count == 1)
        guard case .failure(let error) = decode(sentence + padding + "\n") else {
            Issue.record("accepted a line longer than the limit")
            return
        }
        #expect(error.reason == .oversized)
        #expect(error.recovery == .closeConnection)
    }

    @Test func nonASCIIGarbageSkipsItsLineOnly() throws {
        var decoder = NMEADecoder()
        let garbage: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x80, 0x0A]
        guard case .failure(let error) = StreamDecoding.frames(garbage, with: &decoder) else {
            Issue.record("accepted garbage")
            return
        }
        #expect(error.reason == .unsupported)
        #expect(error.recovery == .skip(garbage.count))
        let next = Array("TAXI-9,$GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,231126,,\n".utf8)
        #expect(try StreamDecoding.frames(next, with: &decoder).get().first?.fixes.first?.deviceId == "TAXI-9")
    }

    @Test func nonASCIIBytesInAFieldAreMalformedNamingTheField() {
        var decoder = NMEADecoder()
        let line = Array("D1,$GPRMC,080005,A,4045.5338,N,07359.1078,W,1".utf8) + [0xC2, 0xB0] + Array(",0,231126,,\n".utf8)
        guard case .failure(let error) = StreamDecoding.frames(line, with: &decoder) else {
            Issue.record("accepted a speed with a degree sign")
            return
        }
        #expect(error.message == "RMC speed '1°' is not a number of knots")
    }

    @Test func anIdentifierInAnotherScriptStillNamesTheDevice() throws {
        let frames = try decode("TAXI-Ü1\r\nimei:Ф123,$GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,231126,,\n").get()
        #expect(frames.first?.announcedDeviceId == "TAXI-Ü1")
        #expect(frames.last?.fixes.first?.deviceId == "Ф123")
    }

    @Test(arguments: [
        ("GPRMC,080005,A,4045.5338,N", "the RMC sentence has 5 fields, at least 10 are needed"),
        ("GPRMC,0805,A,4045.5338,N,07359.1078,W,0,0,231126", "RMC time '0805' is not hhmmss[.sss]"),
        ("GPRMC,250005,A,4045.5338,N,07359.1078,W,0,0,231126", "RMC time '250005' is not hhmmss[.sss]"),
        ("GPRMC,080005,X,4045.5338,N,07359.1078,W,0,0,231126", "RMC status 'X' is not A or V"),
        ("GPRMC,080005,A,4075.5338,N,07359.1078,W,0,0,231126", "RMC latitude '4075.5338,N' is not ddmm.mmmm,N|S"),
        ("GPRMC,080005,A,4045.5338,E,07359.1078,W,0,0,231126", "RMC latitude '4045.5338,E' is not ddmm.mmmm,N|S"),
        ("GPRMC,080005,A,4045.5338,N,07359.1078,,0,0,231126", "RMC longitude '07359.1078,' is not dddmm.mmmm,E|W"),
        ("GPRMC,080005,A,4045.5338,N,-07359.1078,W,0,0,231126", "RMC longitude '-07359.1078,W' is not dddmm.mmmm,E|W"),
        ("GPRMC,080005,A,4045.5338,N,07359.1078,W,-1,0,231126", "RMC speed '-1' is not a number of knots"),
        ("GPRMC,080005,A,4045.5338,N,07359.1078,W,0,2x,231126", "RMC course '2x' is not a number"),
        ("GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,311326", "RMC date '311326' is not ddmmyy"),
        ("GPRMC,080005,A,4045.5338,N,07359.1078,W,0,0,23112", "RMC date '23112' is not ddmmyy"),
    ])
    func aWrongFieldIsNamed(body: String, message: String) {
        guard case .failure(let error) = decode("D1,$" + body + "\n") else {
            Issue.record("accepted \(body)")
            return
        }
        #expect(error.reason == .malformed)
        #expect(error.message == message)
    }
}

extension JSONValue {
    /// The number, if this is one.
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
