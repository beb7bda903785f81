import FixRecords
import Foundation

/// The recommended-minimum sentence of NMEA 0183 (`$GPRMC` / `$GNRMC`):
/// time, validity, position, speed over ground and course.
///
/// `hhmmss[.sss],A|V,ddmm.mmmm,N|S,dddmm.mmmm,E|W,knots,course,ddmmyy,...[*hh]`;
/// the `*hh` checksum (XOR of the characters between `$` and `*`) is
/// verified when present. Parsed on the bytes, field by field, with no
/// String unless a field is wrong and the error quotes it.
struct RMCSentence: Equatable {
    var time: Date
    var valid: Bool
    var latitude: Double
    var longitude: Double
    var speedKnots: Double
    var course: Double

    static let knotsToKmh = 1.852

    /// Where `GPRMC,` or `GNRMC,` starts in `line` (after its `$`, if any);
    /// a `GPRMC` anywhere in the line wins over a `GNRMC`.
    static func talkerOffset(in line: UnsafeRawBufferPointer) -> Int? {
        line.firstOffset(of: "GPRMC,") ?? line.firstOffset(of: "GNRMC,")
    }

    /// Parses the sentence starting at the talker (`GPRMC,...` or `GNRMC,...`,
    /// the `$` already skipped); `text` ends at the end of the line.
    static func parse(_ text: UnsafeRawBufferPointer) throws(FrameError) -> RMCSentence {
        let body = try checkedBody(text)
        var fieldCount = 1
        for byte in body where byte == UInt8(ascii: ",") { fieldCount += 1 }
        guard fieldCount >= 10 else {
            throw malformed("the RMC sentence has \(fieldCount) fields, at least 10 are needed")
        }
        var fields = CommaSeparatedFields(body)
        _ = fields.next()
        let timeField = fields.next()!, statusField = fields.next()!
        let latitudeField = fields.next()!, northSouth = fields.next()!
        let longitudeField = fields.next()!, eastWest = fields.next()!
        let speedField = fields.next()!, courseField = fields.next()!, dateField = fields.next()!

        guard let timeOfDay = timeOfDay(timeField) else { throw malformed("RMC time '\(timeField.text)' is not hhmmss[.sss]") }
        guard statusField.count == 1, statusField[0] == UInt8(ascii: "A") || statusField[0] == UInt8(ascii: "V") else {
            throw malformed("RMC status '\(statusField.text)' is not A or V")
        }
        guard let latitude = degrees(latitudeField, hemisphere: northSouth, positive: "N", negative: "S") else {
            throw malformed("RMC latitude '\(latitudeField.text),\(northSouth.text)' is not ddmm.mmmm,N|S")
        }
        guard let longitude = degrees(longitudeField, hemisphere: eastWest, positive: "E", negative: "W") else {
            throw malformed("RMC longitude '\(longitudeField.text),\(eastWest.text)' is not dddmm.mmmm,E|W")
        }
        guard let speed = speedField.isEmpty ? 0 : ASCIINumber.double(speedField), speed >= 0 else {
            throw malformed("RMC speed '\(speedField.text)' is not a number of knots")
        }
        guard let course = courseField.isEmpty ? 0 : ASCIINumber.double(courseField) else {
            throw malformed("RMC course '\(courseField.text)' is not a number")
        }
        guard let time = date(dateField, at: timeOfDay) else { throw malformed("RMC date '\(dateField.text)' is not ddmmyy") }
        return RMCSentence(
            time: time, valid: statusField[0] == UInt8(ascii: "A"), latitude: latitude, longitude: longitude,
            speedKnots: speed, course: course)
    }

    /// The sentence before its `*hh`, once the checksum matches; a `*`
    /// followed by anything but two hex digits is not a checksum and is not checked.
    private static func checkedBody(_ text: UnsafeRawBufferPointer) throws(FrameError) -> UnsafeRawBufferPointer {
        guard let star = text.firstOffset(of: UInt8(ascii: "*")) else { return text }
        let body = text.bytes(0..<star)
        guard star + 2 < text.count, let high = ASCIINumber.hexDigit(text[star + 1]),
            let low = ASCIINumber.hexDigit(text[star + 2])
        else { return body }
        let computed = body.reduce(UInt8(0), ^)
        guard high << 4 | low == computed else {
            let hex = String(computed, radix: 16, uppercase: true)
            throw FrameError(
                .badChecksum,
                "NMEA checksum *\(text.bytes((star + 1)..<(star + 3)).text) does not match the sentence (computed \(hex.count == 1 ? "0" : "")\(hex))",
                recovery: .skip(0))
        }
        return body
    }

    private static func malformed(_ message: String) -> FrameError {
        FrameError(.malformed, message, recovery: .skip(0))
    }

    /// `hhmmss[.sss]`, checked: hours, minutes and seconds (a leap second
    /// allowed). A fraction that is not digits counts as none.
    private static func timeOfDay(_ field: UnsafeRawBufferPointer) -> (hour: Int, minute: Int, second: Double)? {
        let wholeLength = field.firstOffset(of: UInt8(ascii: ".")) ?? field.count
        guard wholeLength == 6, let hour = twoDigits(field, at: 0), let minute = twoDigits(field, at: 2),
            let second = twoDigits(field, at: 4), hour < 24, minute < 60, second < 61
        else { return nil }
        let fraction = field.count - wholeLength > 1 ? ASCIINumber.double(field.bytes(wholeLength..<field.count)) ?? 0 : 0
        return (hour, minute, Double(second) + fraction)
    }

    /// The instant of `ddmmyy` (years 20yy) at `timeOfDay`, UTC.
    private static func date(_ field: UnsafeRawBufferPointer, at timeOfDay: (hour: Int, minute: Int, second: Double)) -> Date? {
        guard field.count == 6, let day = twoDigits(field, at: 0), let month = twoDigits(field, at: 2),
            let year = twoDigits(field, at: 4)
        else { return nil }
        return FixTime.date(
            year: 2000 + year, month: month, day: day, hour: timeOfDay.hour, minute: timeOfDay.minute, second: timeOfDay.second)
    }

    /// The number written by the two ASCII digits at `offset`, if both are digits.
    private static func twoDigits(_ field: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        guard offset + 1 < field.count, let tens = ASCIINumber.digit(field[offset]), let units = ASCIINumber.digit(field[offset + 1])
        else { return nil }
        return Int(tens) * 10 + Int(units)
    }

    /// Decimal degrees of `d…dmm.mmmm` and a hemisphere letter. Devices
    /// sometimes drop leading zeros of the degrees, so the minutes are the
    /// two digits before the decimal point.
    private static func degrees(
        _ field: UnsafeRawBufferPointer, hemisphere: UnsafeRawBufferPointer, positive: Unicode.Scalar, negative: Unicode.Scalar
    ) -> Double? {
        guard hemisphere.count == 1, hemisphere[0] == UInt8(ascii: positive) || hemisphere[0] == UInt8(ascii: negative),
            let value = ASCIINumber.double(field), value >= 0
        else { return nil }
        let sign = hemisphere[0] == UInt8(ascii: positive) ? 1.0 : -1.0
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        return sign * (degrees + minutes / 60)
    }
}
