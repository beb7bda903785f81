import Foundation
import GeoKit
import Testing
@testable import Ingest

@Suite struct NMEADecoderTests {
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
}

extension JSONValue {
    /// The number, if this is one.
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
