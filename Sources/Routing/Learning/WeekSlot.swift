import Foundation

/// A quarter of an hour of the week in the city's local time, the unit in
/// which speeds are learned from the fleet: slot 0 is Monday 00:00–00:15,
/// slot 671 Sunday 23:45–24:00.
public enum WeekSlot {
    /// Slots in a week.
    public static let perWeek = 672
    /// Slots in a day.
    public static let perDay = 96
    /// Slots in an hour.
    public static let perHour = 4
    /// Seconds in a slot.
    public static let seconds = 900.0

    /// The slot `date` falls in, in `timeZone`: arithmetic on the zone's
    /// offset at that moment, no calendar, since every fix asks.
    public static func index(of date: Date, in timeZone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let days = (local / 86_400).rounded(.down)
        // 1970-01-01 was a Thursday, day 3 of a Monday-based week.
        let weekday = ((Int(days) + 3) % 7 + 7) % 7
        let slotOfDay = min(Int((local - days * 86_400) / seconds), perDay - 1)
        return weekday * perDay + slotOfDay
    }

    /// The hour of the week (0..<168) of `slot`.
    public static func hourOfWeek(_ slot: Int) -> Int { slot / perHour }

    /// True for the slots of Saturday and Sunday, whose traffic is learned apart from the weekdays'.
    public static func isWeekend(_ slot: Int) -> Bool { slot / perDay >= 5 }
}
