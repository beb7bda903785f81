import FixRecords
/// NMEA 0183 `$GPRMC` / `$GNRMC` sentences behind a device identifier, one
/// per line, over TCP (SPEC I2).
///
/// Our documented form is `<deviceId>,$GPRMC,...*hh\r\n`. The identifier
/// forms real trackers use are understood too (see `NMEADeviceIdentifier`).
/// A line holding only an identifier (`<deviceId>` or `imei:<imei>`) names
/// the device for the sentences that follow on the connection. The checksum
/// is verified when present; sentences without one are accepted. NMEA has
/// no acknowledgement, so the reply is empty. Parsing works on the bytes:
/// no allocation but the fix array and a device id too long to be stored inline.
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
        guard let newline = try TextLine.end(in: bytes, maxLength: Self.maxLineLength) else { return nil }
        let line = bytes.bytes(0..<newline).trimmingASCIIWhitespace()
        let length = newline + 1
        if line.isEmpty { return DecodedFrame(length: length, kind: .heartbeat) }
        do throws(FrameError) {
            return try decodeLine(line, length: length)
        } catch {
            throw FrameError(error.reason, error.message, recovery: .skip(length))
        }
    }

    /// Decodes one line, trimmed; `length` is the frame's, terminator included.
    private mutating func decodeLine(_ line: UnsafeRawBufferPointer, length: Int) throws(FrameError) -> DecodedFrame {
        guard let talker = RMCSentence.talkerOffset(in: line) else {
            guard let identifier = NMEADeviceIdentifier.alone(in: line) else {
                throw FrameError(.unsupported, "no $GPRMC/$GNRMC sentence and no device identifier in '\(line.text.prefix(60))'",
                                 recovery: .skip(length))
            }
            sessionDeviceId = identifier
            return DecodedFrame(length: length, kind: .login, announcedDeviceId: identifier)
        }
        let sentence = try RMCSentence.parse(line.bytes(talker..<line.count))
        guard let deviceId = NMEADeviceIdentifier.around(sentenceAt: talker, in: line) ?? sessionDeviceId else {
            throw FrameError(.notIdentified, "the sentence carries no device identifier and none was sent before",
                             recovery: .skip(length))
        }
        let fix = DeviceFix(
            deviceId: deviceId, time: sentence.time, latitude: sentence.latitude, longitude: sentence.longitude,
            speedKmh: sentence.speedKnots * RMCSentence.knotsToKmh, course: sentence.course, valid: sentence.valid)
        return DecodedFrame(length: length, kind: .position, fixes: [fix])
    }
}
