import Foundation
import GeoKit
import Testing

@Suite struct DecodeCommandTests {
    @Test func aLineFrameDecodesWithItsAck() throws {
        let result = try CommandRunner.run([
            "decode", "--protocol", "line", "--text", "MT1,TAXI-42,17,2026-11-23T08:00:05Z,40.758896,-73.985130,23.5,271,A",
        ])
        #expect(result.status == 0)
        let output = try JSONParser.parse(result.standardOutput)
        #expect(output["replyHex"] == .string("41434B2C31370A"))
        guard case .array(let messages)? = output["messages"], let message = messages.first else {
            Issue.record("no messages in \(result.standardOutput)")
            return
        }
        #expect(message["deviceId"] == .string("TAXI-42"))
        #expect(message["time"] == .string("2026-11-23T08:00:05.000Z"))
        #expect(message["lat"] == .number(40.758896))
        #expect(message["lon"] == .number(-73.98513))
        #expect(message["speedKmh"] == .number(23.5))
        #expect(message["course"] == .number(271))
        #expect(message["valid"] == .bool(true))
    }

    @Test func nmeaAndOsmAndDecode() throws {
        let nmea = try CommandRunner.run([
            "decode", "--protocol", "nmea", "--text",
            "imei:352024028980000rmc:$GPRMC,093604.354,A,4735.0862,N,01905.2146,E,0.00,0.00,171013,,*09,AUTO-4103mv",
        ])
        #expect(nmea.status == 0)
        #expect(try JSONParser.parse(nmea.standardOutput)["replyHex"] == .string(""))
        #expect(nmea.standardOutput.contains(#""deviceId":"352024028980000""#))
        let osmand = try CommandRunner.run(["decode", "--protocol", "osmand", "--text", "/?id=T1&lat=60&lon=30&timestamp=1377177267"])
        #expect(osmand.status == 0)
        #expect(osmand.standardOutput.contains(#""time":"2013-08-22T13:14:27.000Z""#))
    }

    @Test func aBadFrameExitsOneAndNamesTheProblem() throws {
        let result = try CommandRunner.run(["decode", "--protocol", "line", "--text", "MT1,T1,5,2026-11-23T08:00:05Z,95,7.4,0,0,A"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("field 5 (lat) '95' is out of range"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func badHexExitsOne() throws {
        let result = try CommandRunner.run(["decode", "--protocol", "gt06", "--hex", "7878XY"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("--hex must be pairs of hexadecimal digits"))
    }
}
