import Foundation
import GeoKit
import JSONKit
import Testing

@Suite(.timeLimit(.minutes(20))) struct DecodeCommandTests {
    @Test func aLineFrameDecodesWithItsAck() async throws {
        let result = try await CommandRunner.run([
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

    @Test func nmeaAndOsmAndDecode() async throws {
        let nmea = try await CommandRunner.run([
            "decode", "--protocol", "nmea", "--text",
            "imei:352024028980000rmc:$GPRMC,093604.354,A,4735.0862,N,01905.2146,E,0.00,0.00,171013,,*09,AUTO-4103mv",
        ])
        #expect(nmea.status == 0)
        #expect(try JSONParser.parse(nmea.standardOutput)["replyHex"] == .string(""))
        #expect(nmea.standardOutput.contains(#""deviceId":"352024028980000""#))
        let osmand = try await CommandRunner.run(["decode", "--protocol", "osmand", "--text", "/?id=T1&lat=60&lon=30&timestamp=1377177267"])
        #expect(osmand.status == 0)
        #expect(osmand.standardOutput.contains(#""time":"2013-08-22T13:14:27.000Z""#))
    }

    @Test func gt06AndTeltonikaFramesDecodeWithTheServersReply() async throws {
        let login = "78780D0103534190360660610003C3DF0D0A"
        let location = "787823120F081B121D37CB01C8E2CC08AFD3C020D50201940701D600A1190041EE100576D1470D0A"
        let gt06 = try await CommandRunner.run(["decode", "--protocol", "gt06", "--hex", login + location])
        #expect(gt06.status == 0, "\(gt06.standardError)")
        let output = try JSONParser.parse(gt06.standardOutput)
        #expect(output["replyHex"] == .string("787805010003FACE0D0A" + "787805120576CAAD0D0A"))
        #expect(gt06.standardOutput.contains(#""deviceId":"353419036066061""#))
        #expect(gt06.standardOutput.contains(#""time":"2015-08-27T18:29:55.000Z""#))

        let handshake = "000F313233343536373839303132333435"
        let avl = "000000000000004C08010000016818D500580009C28D9F1CB3757A00BE00C60F0053000F06F0011503C80001011D00FC0007423799180053CDF80DCE426F430F88190BB8560BB802F100005AA110002887E000010000EE8D"
        let teltonika = try await CommandRunner.run(["decode", "--protocol", "teltonika", "--hex", handshake + avl])
        #expect(teltonika.status == 0, "\(teltonika.standardError)")
        #expect(try JSONParser.parse(teltonika.standardOutput)["replyHex"] == .string("01" + "00000001"))
        #expect(teltonika.standardOutput.contains(#""lat":48.1523066,"lon":16.3745183"#))

        let corrupted = try await CommandRunner.run(["decode", "--protocol", "gt06", "--hex", login.replacingOccurrences(of: "C3DF", with: "C3DE")])
        #expect(corrupted.status == 1)
        #expect(corrupted.standardError.contains("bad_checksum"))
    }

    @Test func aBadFrameExitsOneAndNamesTheProblem() async throws {
        let result = try await CommandRunner.run(["decode", "--protocol", "line", "--text", "MT1,T1,5,2026-11-23T08:00:05Z,95,7.4,0,0,A"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("field 5 (lat) '95' is out of range"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func badHexExitsOne() async throws {
        let result = try await CommandRunner.run(["decode", "--protocol", "gt06", "--hex", "7878XY"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("--hex must be pairs of hexadecimal digits"))
    }
}
