import Foundation

/// Fix times as text, the one way the whole service writes them:
/// ISO 8601 UTC with milliseconds (`2026-11-23T08:00:05.250Z`), the
/// archive's resolution, rounded rather than truncated so a time reads back
/// exactly as the device sent it.
public enum FixTime {
    /// 9999-12-31T23:59:59Z, the last second ISO 8601 can write with four
    /// digits: a Unix time a terminal sends must lie between 1970 and this.
    /// Larger ones (1e17, 1e300) would pass as finite and trap where their
    /// milliseconds become an integer.
    public static let latestUnixSeconds = 253_402_300_799.0

    /// True when `seconds` is a Unix time a fix may carry (see ``latestUnixSeconds``).
    public static func isPlausibleUnixTime(_ seconds: Double) -> Bool {
        seconds.isFinite && seconds >= 0 && seconds <= latestUnixSeconds
    }

    /// `date` as ISO 8601 UTC with milliseconds.
    ///
    /// Written digit by digit into 24 bytes: every notice, queue entry and
    /// fix the API answers carries one or more, and joining padded strings
    /// cost more than the rest of a notice's JSON.
    public static func iso8601(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (wholeSeconds, millis) = floorDivision(milliseconds, 1000)
        var seconds = time_t(wholeSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else {
            return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                          Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(millis))
        }
        return String(unsafeUninitializedCapacity: 24) { text in
            func digits(_ value: Int, _ width: Int, at start: Int) {
                var rest = value
                for index in stride(from: start + width - 1, through: start, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            digits(year, 4, at: 0)
            digits(Int(parts.tm_mon) + 1, 2, at: 5)
            digits(Int(parts.tm_mday), 2, at: 8)
            digits(Int(parts.tm_hour), 2, at: 11)
            digits(Int(parts.tm_min), 2, at: 14)
            digits(Int(parts.tm_sec), 2, at: 17)
            digits(Int(millis), 3, at: 20)
            (text[4], text[7], text[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
            (text[13], text[16], text[19], text[23]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z"))
            return 24
        }
    }

    /// Parses ISO 8601 (`2026-11-23T08:00:05Z`, with or without fractional
    /// seconds or an offset); nil when it is not one.
    public static func date(iso8601 text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: .iso8601)
    }

    /// The instant of a UTC calendar date and time, for binary and NMEA
    /// fields that send them apart; nil when a field is out of its range.
    /// Computed directly (days from the civil date), no Calendar, as it runs
    /// once per fix.
    public static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0..<24).contains(hour), (0..<60).contains(minute),
            second >= 0, second < 61
        else { return nil }
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60) + second
        return Date(timeIntervalSince1970: seconds)
    }

    /// Quotient and remainder rounding toward minus infinity (times before 1970 stay right).
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
