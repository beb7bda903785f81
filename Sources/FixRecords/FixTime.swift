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

    /// Bytes of ``iso8601(_:)``'s text: `2026-11-23T08:00:05.250Z`.
    public static let iso8601Length = 24

    /// `date` as ISO 8601 UTC with milliseconds.
    public static func iso8601(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: iso8601Length) { buffer in
            writeISO8601(date, to: buffer.baseAddress!)
            return iso8601Length
        }
    }

    /// Writes ``iso8601(_:)``'s text of `date`, ``iso8601Length`` bytes, at
    /// `out`, digit by digit, without a `String` or a C call: every notice,
    /// queue entry and fix the API answers carries one or more (a fleet read
    /// ten thousand). The civil date comes from the day count, the inverse
    /// of ``date(year:month:day:hour:minute:second:)``. Years past 9999 do
    /// not occur: ``isPlausibleUnixTime(_:)`` bounds every fix's time.
    @inlinable
    public static func writeISO8601(_ date: Date, to out: UnsafeMutablePointer<UInt8>) {
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
        let clampedYear = min(max(year, 0), 9999)
        writeTwoDigits(clampedYear / 100, to: out)
        writeTwoDigits(clampedYear % 100, to: out + 2)
        out[4] = UInt8(ascii: "-")
        writeTwoDigits(month, to: out + 5)
        out[7] = UInt8(ascii: "-")
        writeTwoDigits(day, to: out + 8)
        out[10] = UInt8(ascii: "T")
        writeTwoDigits(second / 3600, to: out + 11)
        out[13] = UInt8(ascii: ":")
        writeTwoDigits(second / 60 % 60, to: out + 14)
        out[16] = UInt8(ascii: ":")
        writeTwoDigits(second % 60, to: out + 17)
        out[19] = UInt8(ascii: ".")
        out[20] = UInt8(ascii: "0") + UInt8(millis / 100)
        writeTwoDigits(Int(millis % 100), to: out + 21)
        out[23] = UInt8(ascii: "Z")
    }

    /// Writes `value` (0 to 99) as two decimal digits at `out`.
    @inlinable
    static func writeTwoDigits(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        out[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }

    /// Parses ISO 8601 (`2026-11-23T08:00:05Z`, with or without fractional
    /// seconds or an offset); nil when it is not one. Every RFC 3339
    /// date-time is one, which is what the API document promises
    /// (``rfc3339Date(_:)`` takes those Foundation refuses).
    public static func date(iso8601 text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return rfc3339Date(text)
    }

    /// An RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`,
    /// `T` and `Z` in either case), read field by field: Foundation's
    /// parser refuses offsets past ±18:00, which RFC 3339 allows up to
    /// ±23:59, and more than nine fractional digits. Nil when `text` is not one.
    static func rfc3339Date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(8, 2), bytes[10] | 0x20 == UInt8(ascii: "t"), let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"),
              let minute = number(14, 2), bytes[16] == UInt8(ascii: ":"), let wholeSecond = number(17, 2)
        else { return nil }
        var index = 19
        var second = Double(wholeSecond)
        if bytes[index] == UInt8(ascii: ".") {
            let digits = bytes[(index + 1)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, let fraction = Double("0." + String(decoding: digits, as: UTF8.self)) else { return nil }
            second += fraction
            index += 1 + digits.count
        }
        let offsetMinutes: Int
        if index == bytes.count - 1, bytes[index] | 0x20 == UInt8(ascii: "z") {
            offsetMinutes = 0
        } else if index == bytes.count - 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
                  let offsetHours = number(index + 1, 2), offsetHours < 24, bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetMinute = number(index + 4, 2), offsetMinute < 60 {
            offsetMinutes = (bytes[index] == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 60 + offsetMinute)
        } else {
            return nil
        }
        guard let local = date(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        return local.addingTimeInterval(-Double(offsetMinutes) * 60)
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
    @inlinable
    static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
