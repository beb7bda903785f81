import Foundation

/// The recommended-minimum sentence of NMEA 0183 (`$GPRMC` / `$GNRMC`):
/// time, validity, position, speed over ground and course.
///
/// `hhmmss[.sss],A|V,ddmm.mmmm,N|S,dddmm.mmmm,E|W,knots,course,ddmmyy,...[*hh]`;
/// the `*hh` checksum (XOR of the characters between `$` and `*`) is
/// verified when present.
struct RMCSentence: Equatable {
    var time: Date
    var valid: Bool
    var latitude: Double
    var longitude: Double
    var speedKnots: Double
    var course: Double

    static let knotsToKmh = 1.852

    /// Parses the sentence starting at the talker (`GPRMC,...` or `GNRMC,...`,
    /// the `$` already skipped); `text` ends at the end of the line.
    static func parse(_ text: Substring) throws(FrameError) -> RMCSentence {
        let body: Substring
        if let star = text.firstIndex(of: "*") {
            body = text[..<star]
            let digits = text[text.index(after: star)...].prefix(2)
            if digits.count == 2, digits.allSatisfy(\.isHexDigit) {
                let sent = UInt8(digits, radix: 16) ?? 0
                let computed = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
                guard sent == computed else {
                    throw FrameError(
                        .badChecksum,
                        "NMEA checksum *\(digits) does not match the sentence (computed \(String(format: "%02X", computed)))",
                        recovery: .skip(0))
                }
            }
        } else {
            body = text
        }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 10 else {
            throw malformed("the RMC sentence has \(fields.count) fields, at least 10 are needed")
        }
        guard let time = timeOfDay(fields[1]) else { throw malformed("RMC time '\(fields[1])' is not hhmmss[.sss]") }
        guard fields[2] == "A" || fields[2] == "V" else { throw malformed("RMC status '\(fields[2])' is not A or V") }
        guard let latitude = degrees(fields[3], hemisphere: fields[4], positive: "N", negative: "S", degreeDigits: 2) else {
            throw malformed("RMC latitude '\(fields[3]),\(fields[4])' is not ddmm.mmmm,N|S")
        }
        guard let longitude = degrees(fields[5], hemisphere: fields[6], positive: "E", negative: "W", degreeDigits: 3) else {
            throw malformed("RMC longitude '\(fields[5]),\(fields[6])' is not dddmm.mmmm,E|W")
        }
        let speed = fields[7].isEmpty ? 0 : Double(fields[7])
        let course = fields[8].isEmpty ? 0 : Double(fields[8])
        guard let speed, speed >= 0 else { throw malformed("RMC speed '\(fields[7])' is not a number of knots") }
        guard let course else { throw malformed("RMC course '\(fields[8])' is not a number") }
        guard let date = date(fields[9]) else { throw malformed("RMC date '\(fields[9])' is not ddmmyy") }
        return RMCSentence(
            time: date.addingTimeInterval(time), valid: fields[2] == "A", latitude: latitude, longitude: longitude,
            speedKnots: speed, course: course)
    }

    private static func malformed(_ message: String) -> FrameError {
        FrameError(.malformed, message, recovery: .skip(0))
    }

    /// Seconds since midnight of `hhmmss[.sss]`.
    private static func timeOfDay(_ field: Substring) -> TimeInterval? {
        let whole = field.prefix { $0 != "." }
        guard whole.count == 6, whole.allSatisfy(\.isASCIIDigit), let value = Int(whole) else { return nil }
        let (hours, minutes, seconds) = (value / 10_000, value / 100 % 100, value % 100)
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        let fraction = field.dropFirst(whole.count)
        let fractionValue = fraction.count > 1 ? Double("0" + fraction) ?? 0 : 0
        return Double(hours * 3600 + minutes * 60 + seconds) + fractionValue
    }

    /// Midnight UTC of `ddmmyy` (years 20yy).
    private static func date(_ field: Substring) -> Date? {
        guard field.count == 6, field.allSatisfy(\.isASCIIDigit), let value = Int(field) else { return nil }
        let (day, month, year) = (value / 10_000, value / 100 % 100, 2000 + value % 100)
        return FixTime.date(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
    }

    /// Decimal degrees of `d…dmm.mmmm` and a hemisphere letter. Devices
    /// sometimes drop leading zeros of the degrees, so the minutes are the
    /// two digits before the decimal point.
    private static func degrees(
        _ field: Substring, hemisphere: Substring, positive: Character, negative: Character, degreeDigits: Int
    ) -> Double? {
        guard let sign = hemisphere == String(positive) ? 1.0 : hemisphere == String(negative) ? -1.0 : nil,
            let value = Double(field), value >= 0
        else { return nil }
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        return sign * (degrees + minutes / 60)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
