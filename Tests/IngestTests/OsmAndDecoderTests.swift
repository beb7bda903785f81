import Foundation
import GeoKit
import JSONKit
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct OsmAndDecoderTests {
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

    /// NaN, infinity and numbers that become infinite in a unit conversion
    /// are malformed in every numeric query parameter: once a NaN time got
    /// through and trapped the server where it became an integer.
    @Test(arguments: [
        "timestamp=nan", "timestamp=inf", "timestamp=-inf", "timestamp=1e400", "timestamp=1e300", "timestamp=-1e300",
        "lat=nan", "lon=inf", "lat=1e400", "speed=nan", "speed=1e308", "speed=inf", "bearing=nan", "heading=-inf",
        "altitude=nan", "altitude=1e400", "accuracy=inf", "batt=nan",
    ])
    func aNonFiniteQueryNumberIsMalformed(parameter: String) {
        let name = String(parameter.prefix { $0 != "=" })
        let base = ["id=T1", "lat=43.7", "lon=7.4", "timestamp=1795420790"].filter { !$0.hasPrefix(name + "=") }
        #expect(throws: FrameError.self, "\(parameter)") {
            try OsmAndDecoder.decode(query: (base + [parameter]).joined(separator: "&"), now: Self.now)
        }
    }

    /// The same in the JSON body of the newer app: numbers beyond a double
    /// (1e400 reads as infinity) and "nan" strings for the timestamp.
    @Test(arguments: [
        #""timestamp":"nan","coords":{"latitude":43.7,"longitude":7.4}"#,
        #""timestamp":1e400,"coords":{"latitude":43.7,"longitude":7.4}"#,
        #""timestamp":"-inf","coords":{"latitude":43.7,"longitude":7.4}"#,
        #""coords":{"latitude":1e400,"longitude":7.4}"#,
        #""coords":{"latitude":43.7,"longitude":-1e400}"#,
        #""coords":{"latitude":43.7,"longitude":7.4,"speed":1e400}"#,
        #""coords":{"latitude":43.7,"longitude":7.4,"speed":1e308}"#,
        #""coords":{"latitude":43.7,"longitude":7.4,"heading":1e400}"#,
        #""coords":{"latitude":43.7,"longitude":7.4,"altitude":-1e400}"#,
        #""coords":{"latitude":43.7,"longitude":7.4,"accuracy":1e400}"#,
        #""coords":{"latitude":43.7,"longitude":7.4},"battery":{"level":1e400}"#,
    ])
    func aNonFiniteJSONNumberIsMalformed(location: String) {
        let body = #"{"device_id":"T1","location":{"# + location + "}}"
        #expect(throws: FrameError.self, "\(location)") {
            try OsmAndDecoder.decode(jsonBody: Array(body.utf8), now: Self.now)
        }
    }
}
