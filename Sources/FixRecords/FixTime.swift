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
    public static func iso8601(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        appendISO8601(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso8601(_:)``'s text of `date` to `bytes`, digit by digit,
    /// without a `String` or a C call: every notice, queue entry and fix the
    /// API answers carries one or more (a fleet read ten thousand). The civil
    /// date comes from the day count, the inverse of
    /// ``date(year:month:day:hour:minute:second:)``.
    public static func appendISO8601(_ date: Date, to bytes: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (wholeSeconds, millis) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(wholeSeconds, 86_400)
        let shiftedDays = Int(days) + 719_468
        let era = (shiftedDays >= 0 ? shiftedDays : shiftedDays - 146_096) / 146_097
        let dayOfEra = shiftedDays - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let second = Int(secondOfDay)
        append(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        append(second / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(second / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(second % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        append(Int(millis), width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends `value` (0 or more) in decimal, left-padded with zeros to `width` digits.
    private static func append(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        let start = bytes.count
        let count = max(digitCount, width)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        var index = start + count - 1
        while remaining > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
            index -= 1
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
