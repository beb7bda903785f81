import FixRecords
import Fleet
import Foundation

/// Our own text protocol (docs/line-protocol.md), one fix per line:
///
///     MT1,<deviceId>,<seq>,<time>,<lat>,<lon>,<speedKmh>,<heading>,<A|V>[,key=value...]\n
///
/// `time` is ISO 8601 UTC (`2026-11-23T08:00:00Z`, optional fraction) or
/// Unix seconds; `A` means a GPS lock. `MT1,<deviceId>,<seq>,PING` is a
/// keep-alive. `MT1,<deviceId>,<seq>,LOGIN,<secret>` presents the device's
/// secret: a login, for the fixes of that device that follow on the
/// connection (or in the datagram). Every line is answered `ACK,<seq>\n`
/// once it is stored (a login once it is accepted). Parsing works on the
/// bytes: no allocation but the device id string (and a login's secret).
public struct LineProtocolDecoder: StreamFrameDecoder, DatagramDecoder {
    public static var wireProtocol: WireProtocol { .line }

    /// The longest line accepted, terminator included.
    public static let maxLineLength = 512

    public init() {}

    public mutating func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame? {
        guard let newline = try TextLine.end(in: bytes, maxLength: Self.maxLineLength) else { return nil }
        var end = newline
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return try Self.decodeLine(UnsafeRawBufferPointer(rebasing: bytes[0..<end]), frameLength: newline + 1)
    }

    /// A datagram holds one or more lines; a missing final newline is allowed.
    /// At most one of them is a `LOGIN`, whose secret vouches for the
    /// fixes of its device in the same datagram (a datagram carries its
    /// own credentials: UDP has no connection to remember a login).
    public static func decodeDatagram(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame {
        var combined = DecodedFrame(length: bytes.count, kind: .heartbeat)
        var start = 0
        while start < bytes.count {
            var newline = start
            while newline < bytes.count && bytes[newline] != UInt8(ascii: "\n") { newline += 1 }
            var end = newline
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > start {
                let frame = try decodeLine(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), frameLength: newline - start)
                if frame.kind == .login {
                    guard combined.announcedDeviceId == nil else {
                        throw FrameError(.malformed, "a datagram may carry one LOGIN line, not two", recovery: .skip(bytes.count))
                    }
                    combined.announcedDeviceId = frame.announcedDeviceId
                    combined.presentedSecret = frame.presentedSecret
                    if combined.kind == .heartbeat { combined.kind = .login }
                }
                combined.fixes += frame.fixes
                combined.reply += frame.reply
                if frame.kind == .position { combined.kind = .position }
            }
            start = newline + 1
        }
        return combined
    }

    /// Decodes one line without its terminator.
    static func decodeLine(_ line: UnsafeRawBufferPointer, frameLength: Int) throws(FrameError) -> DecodedFrame {
        var fields = FieldCursor(line: line, frameLength: frameLength)
        let version = try fields.next(named: "version")
        guard version.count == 3, version[0] == UInt8(ascii: "M"), version[1] == UInt8(ascii: "T"), version[2] == UInt8(ascii: "1")
        else {
            throw FrameError(.garbage, "a line must start with MT1, not '\(fields.text(version))'", recovery: .skip(frameLength))
        }
        let deviceField = try fields.next(named: "device id")
        guard !deviceField.isEmpty, deviceField.count <= 64 else {
            throw fields.error("field 2 (device id) must be 1 to 64 characters")
        }
        let deviceId = fields.text(deviceField)
        let seqField = try fields.next(named: "seq")
        guard let seq = ASCIINumber.unsigned(seqField) else {
            throw fields.error("field 3 (seq) '\(fields.text(seqField))' is not an unsigned integer")
        }
        let reply = Array("ACK,\(seq)\n".utf8)
        let timeField = try fields.next(named: "time")
        if fields.text(timeField) == "PING" && fields.atEnd {
            return DecodedFrame(length: frameLength, kind: .heartbeat, reply: reply)
        }
        if fields.text(timeField) == "LOGIN" {
            return try login(of: deviceId, secretFrom: &fields, reply: reply)
        }
        guard let time = Self.time(timeField) else {
            throw fields.error("field 4 (time) '\(fields.text(timeField))' is neither ISO 8601 UTC nor Unix seconds")
        }
        let latitude = try fields.number(named: "lat", position: 5, range: -90...90)
        let longitude = try fields.number(named: "lon", position: 6, range: -180...180)
        let speed = try fields.number(named: "speedKmh", position: 7, range: 0...1000)
        let heading = try fields.number(named: "heading", position: 8, range: 0...360)
        let validity = try fields.next(named: "validity")
        guard validity.count == 1, validity[0] == UInt8(ascii: "A") || validity[0] == UInt8(ascii: "V") else {
            throw fields.error("field 9 (validity) must be A or V, not '\(fields.text(validity))'")
        }
        var fix = DeviceFix(
            deviceId: deviceId, time: time, latitude: latitude, longitude: longitude, speedKmh: speed,
            course: heading.truncatingRemainder(dividingBy: 360), valid: validity[0] == UInt8(ascii: "A"))
        while !fields.atEnd {
            let extra = try fields.next(named: "extra")
            guard let equals = extra.firstIndex(of: UInt8(ascii: "=")) else {
                throw fields.error("optional field '\(fields.text(extra))' must be key=value")
            }
            let key = fields.text(UnsafeRawBufferPointer(rebasing: extra[extra.startIndex..<equals]))
            let value = UnsafeRawBufferPointer(rebasing: extra[(equals + 1)..<extra.endIndex])
            switch key {
            case "alt": fix.altitude = ASCIINumber.double(value)
            case "acc": fix.accuracy = ASCIINumber.double(value)
            case "batt": fix.batteryPercent = ASCIINumber.double(value)
            case "sat": fix.satellites = ASCIINumber.unsigned(value).flatMap { $0 <= 255 ? Int($0) : nil }
            case "alarm": fix.alarm = fields.text(value)
            default: break
            }
        }
        return DecodedFrame(length: frameLength, kind: fix.alarm == nil ? .position : .alarm, fixes: [fix], reply: reply)
    }

    /// The rest of `MT1,<deviceId>,<seq>,LOGIN,<secret>`: exactly one field,
    /// the secret, 1 to 64 bytes. No error quotes it: a secret must not
    /// reach a log line.
    private static func login(
        of deviceId: String, secretFrom fields: inout FieldCursor, reply: [UInt8]
    ) throws(FrameError) -> DecodedFrame {
        let secretField = try fields.next(named: "secret")
        guard !secretField.isEmpty, secretField.count <= DeviceSecret.maxLength else {
            throw fields.error("field 5 (secret) of a LOGIN line must be 1 to \(DeviceSecret.maxLength) characters")
        }
        guard fields.atEnd else {
            throw fields.error("a LOGIN line ends after its secret (field 5): no comma in a secret, nothing after it")
        }
        return DecodedFrame(
            length: fields.frameLength, kind: .login, announcedDeviceId: deviceId,
            presentedSecret: DeviceSecret(presented: String(decoding: secretField, as: UTF8.self)), reply: reply)
    }

    /// ISO 8601 UTC (`YYYY-MM-DDThh:mm:ss[.fff]Z`) or Unix seconds up to
    /// the year 9999.
    static func time(_ bytes: UnsafeRawBufferPointer) -> Date? {
        if let seconds = ASCIINumber.double(bytes), bytes.count < 20, !bytes.contains(UInt8(ascii: "-")) {
            return FixTime.isPlausibleUnixTime(seconds) ? Date(timeIntervalSince1970: seconds) : nil
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[bytes.count - 1] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count <= 30,
                let digits = number(20, bytes.count - 21)
            else { return nil }
            fraction = Double(digits) / pow(10, Double(bytes.count - 21))
        }
        return FixTime.date(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second) + fraction)
    }
}

/// Walks the comma-separated fields of one line, with errors that name the field.
private struct FieldCursor {
    private var fields: CommaSeparatedFields
    let frameLength: Int
    var fieldNumber = 0

    init(line: UnsafeRawBufferPointer, frameLength: Int) {
        self.fields = CommaSeparatedFields(line)
        self.frameLength = frameLength
    }

    var atEnd: Bool { fields.atEnd }

    mutating func next(named name: String) throws(FrameError) -> UnsafeRawBufferPointer {
        guard let field = fields.next() else {
            throw error("field \(fieldNumber + 1) (\(name)) is missing")
        }
        fieldNumber += 1
        return field
    }

    mutating func number(named name: String, position number: Int, range: ClosedRange<Double>) throws(FrameError) -> Double {
        let field = try next(named: name)
        guard let value = ASCIINumber.double(field) else {
            throw error("field \(number) (\(name)) '\(text(field))' is not a number")
        }
        guard range.contains(value) else {
            throw error("field \(number) (\(name)) '\(text(field))' is out of range \(range.lowerBound.formatted())...\(range.upperBound.formatted())")
        }
        return value
    }

    func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix(64), as: UTF8.self)
    }

    func error(_ message: String) -> FrameError {
        FrameError(.malformed, message, recovery: .skip(frameLength))
    }
}
