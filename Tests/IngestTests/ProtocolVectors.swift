import Foundation
import JSONKit
import Testing
import GeoKit

/// The real frames of ../shared/data/protocols/protocols.json (from Traccar's
/// test suite) with what they decode to. Absent data makes the tests skip.
struct ProtocolVector: Sendable, CustomTestStringConvertible {
    /// Stable id such as `gt06-017`.
    var id: String
    /// `gt06`, `teltonika`, `osmand` or `nmea-gprmc`.
    var protocolName: String
    /// `tcp`, `udp` or `http`.
    var transport: String
    /// `binary-hex`, `text`, `http-query` or `http-json`.
    var kind: String
    /// The frame: hex for binary, the exact text otherwise.
    var payload: String
    /// Traccar's own assertion: `verifyPosition`, `verifyNull`, ...
    var traccarCall: String
    /// What Traccar's test asserts (time, valid, lat, lon), or nil.
    var expect: JSONValue?
    /// The data set's own decoding (ack_hex, positions, crc_ok, ...), or nil.
    var derivedExpect: JSONValue?
    var notes: String

    var testDescription: String { id }

    /// The payload's bytes (hex decoded for binary frames, UTF-8 otherwise).
    var bytes: [UInt8] {
        kind == "binary-hex" ? ProtocolVectors.bytes(hex: payload) : Array(payload.utf8)
    }
}

enum ProtocolVectors {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/protocols/protocols.json").path

    /// True when the shared vectors are present; tests using them are enabled only then.
    static var available: Bool { FileManager.default.fileExists(atPath: path) }

    /// Every vector of one protocol (empty when the file is absent).
    static func vectors(protocol name: String) -> [ProtocolVector] {
        all.filter { $0.protocolName == name }
    }

    static let all: [ProtocolVector] = {
        guard let data = FileManager.default.contents(atPath: path),
            case .array(let records)? = try? JSONParser.parse(data)
        else { return [] }
        return records.compactMap { record in
            guard let id = record["id"]?.scalarText, let payload = record["payload"]?.scalarText else { return nil }
            return ProtocolVector(
                id: id,
                protocolName: record["protocol"]?.scalarText ?? "",
                transport: record["transport"]?.scalarText ?? "",
                kind: record["kind"]?.scalarText ?? "",
                payload: payload,
                traccarCall: record["traccar_call"]?.scalarText ?? "",
                expect: record["expect"].flatMap { $0 == .null ? nil : $0 },
                derivedExpect: record["derived_expect"].flatMap { $0 == .null ? nil : $0 },
                notes: record["notes"]?.scalarText ?? "")
        }
    }()

    /// Bytes of a hex string (upper or lower case); invalid pairs are dropped.
    static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = hexNibble(character) else { continue }
            if let h = high {
                result.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return result
    }

    private static func hexNibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
