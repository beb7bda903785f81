import ArgumentParser
import FixRecords
import Foundation
import GeoKit
import Ingest
import JSONKit

/// `mytaxi decode`: one captured frame decoded offline, with the reply the
/// server would send, for operators debugging a device.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode one captured frame (or an OsmAnd query) and show the server's reply.",
        discussion: """
            Prints one JSON object: {"messages": [{"deviceId", "time", "lat", "lon", "speedKmh", "course", "valid", ...}],
            "replyHex": "..."} where replyHex is what the server would answer (empty when nothing).
            Exits 1 with the reason when the frame is bad.
            Protocols: \(WireProtocol.allCases.map(\.rawValue).joined(separator: ", ")).
            Examples:
              mytaxi decode --protocol gt06 --hex 78780D01012345678901234500018CDD0D0A
              mytaxi decode --protocol osmand --text 'id=T1&lat=40.75&lon=-73.98&timestamp=1795420805&speed=10'
            """)

    @Option(name: .customLong("protocol"), help: ArgumentHelp("Wire protocol of the frame.", valueName: "NAME"))
    var wireProtocol: WireProtocol

    @Option(help: ArgumentHelp("The frame as hexadecimal bytes (spaces allowed).", valueName: "HEX"))
    var hex: String?

    @Option(help: ArgumentHelp("The frame as text (a line, an OsmAnd query string or JSON body).", valueName: "TEXT"))
    var text: String?

    func validate() throws {
        guard (hex == nil) != (text == nil) else { throw ValidationError("give exactly one of --hex HEX or --text TEXT") }
    }

    func run() throws {
        let bytes: [UInt8]
        if let hex {
            guard let decoded = Self.bytes(hex: hex) else {
                printError("mytaxi decode: --hex must be pairs of hexadecimal digits (0-9, A-F), got '\(hex.prefix(40))'")
                throw ExitCode(1)
            }
            bytes = decoded
        } else {
            var line = Array((text ?? "").utf8)
            if [.line, .nmea].contains(wireProtocol), line.last != UInt8(ascii: "\n") { line.append(UInt8(ascii: "\n")) }
            bytes = line
        }
        let frames: [DecodedFrame]
        do {
            frames = try OfflineDecoder.decode(bytes, as: wireProtocol)
        } catch {
            printError("mytaxi decode: bad \(wireProtocol.rawValue) frame (\(error.reason.rawValue)): \(error.message)")
            throw ExitCode(1)
        }
        let messages: [JSONValue] = frames.flatMap { frame in
            frame.fixes.isEmpty
                ? [.object(["kind": .string(frame.kind.rawValue)].merging(
                    frame.announcedDeviceId.map { ["deviceId": .string($0)] } ?? [:]) { $1 })]
                : frame.fixes.map { Self.json($0, kind: frame.kind) }
        }
        let reply = frames.flatMap(\.reply).map { String(format: "%02X", $0) }.joined()
        print(JSONValue.object(["messages": .array(messages), "replyHex": .string(reply)]).serialized)
    }

    static func json(_ fix: DeviceFix, kind: DecodedFrame.Kind) -> JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "deviceId": .string(fix.deviceId), "time": .string(FixTime.iso8601(fix.time)),
            "lat": .number(fix.latitude), "lon": .number(fix.longitude), "speedKmh": .number(fix.speedKmh),
            "course": .number(fix.course), "valid": .bool(fix.valid),
        ]
        if let value = fix.altitude { members["altitude"] = .number(value) }
        if let value = fix.satellites { members["satellites"] = .number(Double(value)) }
        if let value = fix.accuracy { members["accuracy"] = .number(value) }
        if let value = fix.batteryPercent { members["batteryPercent"] = .number(value) }
        if let value = fix.alarm { members["alarm"] = .string(value) }
        return .object(members)
    }

    /// Bytes of a hex string, ignoring spaces; nil when it is not hex.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = hex.filter { !$0.isWhitespace }
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var result: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}

extension WireProtocol: ExpressibleByArgument {}
