import Foundation

/// A fix time split into UTC calendar fields, for the binary and NMEA
/// encoders; computed with integer arithmetic (days to civil date, after
/// Howard Hinnant) rather than Foundation's Calendar, because the generator
/// must stay cheaper than the server it measures.
struct UTCFields {
    var year, month, day, hour, minute, second, millisecond: Int

    /// The fields of `date`, to the millisecond.
    init(_ date: Date) {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let ofDay = millis - days * 86_400_000
        (hour, minute, second, millisecond) = (ofDay / 3_600_000, ofDay / 60_000 % 60, ofDay / 1000 % 60, ofDay % 1000)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
