import Foundation
import GeoKit
import Testing
@testable import Ingest

@Suite struct OsmAndDecoderTests {
    static let now = Date(timeIntervalSince1970: 1_795_420_800)
    static let vectors = ProtocolVectors.vectors(protocol: "osmand")
        + ProtocolVectors.vectors(protocol: "nmea-gprmc").filter { $0.kind == "http-query" }

    func decode(_ vector: ProtocolVector) throws(FrameError) -> DeviceFix {
        vector.kind == "http-json"
            ? try OsmAndDecoder.decode(jsonBody: Array(vector.payload.utf8), now: Self.now)
            : try OsmAndDecoder.decode(query: vector.payload, now: Self.now)
    }

    @Test(.enabled(if: ProtocolVectors.available, "../shared/data/protocols is absent"), arguments: vectors)
    func everyTraccarRequestDecodes(vector: ProtocolVector) throws {
        let expected = try #require(vector.derivedExpect)
        guard expected["lat"]?.number != nil else {
            // Cell towers and Wi-Fi only (osmand-005): no position we can use.
            #expect(throws: FrameError.self) { try decode(vector) }
            return
        }
        let fix: DeviceFix
        do {
            fix = try decode(vector)
        } catch {
            if vector.id == "nmea-gprmc-061" {
                // Its RMC checksum does not match: we verify it.
                #expect(error.reason == .badChecksum)
                return
            }
            Issue.record("\(vector.id): \(error)")
            return
        }
        #expect(abs(fix.latitude - (expected["lat"]?.number ?? .nan)) < 1e-5)
        #expect(abs(fix.longitude - (expected["lon"]?.number ?? .nan)) < 1e-5)
        if let id = expected["device_id"]?.scalarText { #expect(fix.deviceId == id) }
        if let time = expected["time"]?.scalarText {
            #expect(abs(fix.time.timeIntervalSince1970 - (try Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)).timeIntervalSince1970)) < 0.001)
        } else {
            #expect(fix.time == Self.now, "no timestamp means the time of receipt")
        }
        if let knots = expected["speed_knots"]?.number { #expect(abs(fix.speedKmh - knots * 1.852) < 1e-9) }
        if let altitude = expected["altitude"]?.number { #expect(fix.altitude == altitude) }
        if let battery = expected["battery_level"]?.number { #expect(fix.batteryPercent == battery) }
    }

    @Test func timestampsInSecondsMillisecondsAndISO8601() throws {
        for text in ["1795420805", "1795420805000", "2026-11-23T08:00:05Z", "2026-11-23+08%3A00%3A05"] {
            let fix = try OsmAndDecoder.decode(query: "/?id=T1&lat=40.7&lon=-74&timestamp=\(text)", now: Self.now)
            #expect(fix.time == Date(timeIntervalSince1970: 1_795_420_805), "\(text)")
        }
    }

    @Test(arguments: [
        ("/?lat=40.7&lon=-74", "'id'"),
        ("/?id=T1&lon=-74", "missing parameter 'lat'"),
        ("/?id=T1&lat=abc&lon=-74", "lat 'abc' is not a number"),
        ("/?id=T1&lat=40.7&lon=-74&timestamp=yesterday", "timestamp 'yesterday'"),
    ])
    func aBadRequestSaysWhatIsWrong(query: String, message: String) {
        #expect {
            try OsmAndDecoder.decode(query: query, now: Self.now)
        } throws: { error in
            (error as? FrameError)?.message.contains(message) == true
        }
    }

    @Test func formParametersMapToTheFix() throws {
        let fix = try OsmAndDecoder.decode(
            query: "id=T1&lat=40.7&lon=-74&speed=10&bearing=90&altitude=12&accuracy=5&batt=80&valid=false", now: Self.now)
        #expect(fix.speedKmh == 18.52)
        #expect(fix.course == 90)
        #expect(fix.accuracy == 5)
        #expect(fix.batteryPercent == 80)
        #expect(!fix.valid)
    }
}
