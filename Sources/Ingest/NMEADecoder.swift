import Foundation

/// NMEA 0183 `$GPRMC` / `$GNRMC` sentences behind a device identifier, one
/// per line, over TCP (SPEC I2).
///
/// Our documented form is `<deviceId>,$GPRMC,...*hh\r\n`. The identifier
/// forms real trackers use are understood too: `%<imei>,$GPRMC...`,
/// `imei:<imei>rmc:$GPRMC...`, `imei=<imei>&rmc=$GPRMC...`, `<a>/<imei>/$GPRMC...`,
/// and a trailing `...,imei:<imei>,...` after the sentence. A line holding
/// only an identifier (`<deviceId>` or `imei:<imei>`) names the device for
/// the sentences that follow on the connection. The checksum is verified
/// when present; sentences without one are accepted. NMEA has no
/// acknowledgement, so the reply is empty.
public struct NMEADecoder: StreamFrameDecoder {
    public static var wireProtocol: WireProtocol { .nmea }

    /// The longest line accepted, terminator included.
    public static let maxLineLength = 1024

    /// The identifier named on an earlier line of this connection, if any.
    private var sessionDeviceId: String?

    public init() {}

    public mutating func assumeIdentity(_ deviceId: String) {
        sessionDeviceId = deviceId
    }

    public mutating func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame? {
        let limit = min(bytes.count, Self.maxLineLength)
        guard let newline = (0..<limit).first(where: { bytes[$0] == UInt8(ascii: "\n") }) else {
            if bytes.count >= Self.maxLineLength {
                throw FrameError(.oversized, "no line end within \(Self.maxLineLength) bytes", recovery: .closeConnection)
            }
            return nil
        }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<newline]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let length = newline + 1
        if line.isEmpty { return DecodedFrame(length: length, kind: .heartbeat) }
        do throws(FrameError) {
            return try decodeLine(Substring(line), length: length)
        } catch {
            throw FrameError(error.reason, error.message, recovery: .skip(length))
        }
    }

    private mutating func decodeLine(_ line: Substring, length: Int) throws(FrameError) -> DecodedFrame {
        guard let talker = Self.rmcStart(in: line) else {
            guard let identifier = Self.identifierOnly(line) else {
                throw FrameError(.unsupported, "no $GPRMC/$GNRMC sentence and no device identifier in '\(line.prefix(60))'",
                                 recovery: .skip(length))
            }
            sessionDeviceId = identifier
            return DecodedFrame(length: length, kind: .login, announcedDeviceId: identifier)
        }
        let sentence = try RMCSentence.parse(line[talker...])
        guard let deviceId = Self.deviceId(in: line, sentenceStart: talker) ?? sessionDeviceId else {
            throw FrameError(.notIdentified, "the sentence carries no device identifier and none was sent before",
                             recovery: .skip(length))
        }
        let fix = DeviceFix(
            deviceId: deviceId, time: sentence.time, latitude: sentence.latitude, longitude: sentence.longitude,
            speedKmh: sentence.speedKnots * RMCSentence.knotsToKmh, course: sentence.course, valid: sentence.valid)
        return DecodedFrame(length: length, kind: .position, fixes: [fix])
    }

    /// Where `GPRMC,` or `GNRMC,` starts (after its `$`, if any).
    static func rmcStart(in line: Substring) -> Substring.Index? {
        for talker in ["GPRMC,", "GNRMC,"] {
            if let range = line.range(of: talker) { return range.lowerBound }
        }
        return nil
    }

    /// The device identifier around a sentence, by the forms trackers use.
    static func deviceId(in line: Substring, sentenceStart: Substring.Index) -> String? {
        if let value = value(after: "imei:", in: line) ?? value(after: "imei=", in: line) { return value }
        var prefix = line[..<sentenceStart]
        if prefix.hasSuffix("$") { prefix = prefix.dropLast() }
        if prefix.hasPrefix("%") { prefix = prefix.dropFirst() }
        if let query = prefix.range(of: "id=") {
            return String(prefix[query.upperBound...].prefix { $0 != "&" }).nonEmpty
        }
        let tokens = prefix.split(whereSeparator: { $0 == "," || $0 == "/" })
        return tokens.last.map(String.init)?.nonEmpty
    }

    /// The digits or word following `marker` (`imei:`), if present.
    private static func value(after marker: String, in line: Substring) -> String? {
        guard let range = line.range(of: marker) else { return nil }
        let value = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber }
        let digits = value.prefix { $0.isNumber }
        return String(digits.count >= 6 ? digits : value).nonEmpty
    }

    /// A line that only names the device: `imei:<id>`, `<id>` (letters, digits, `-`, `_`).
    private static func identifierOnly(_ line: Substring) -> String? {
        var candidate = line
        for marker in ["imei:", "imei=", "%", "$PGID,"] where candidate.hasPrefix(marker) {
            candidate = candidate.dropFirst(marker.count)
        }
        if let star = candidate.firstIndex(of: "*") { candidate = candidate[..<star] }
        let allowed = candidate.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return allowed && (1...64).contains(candidate.count) ? String(candidate) : nil
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
