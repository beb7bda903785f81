import Foundation
import Testing
@testable import Routing

/// Quarter-hours of the week in the city's local time.
@Suite(.timeLimit(.minutes(20))) struct WeekSlotTests {
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func slotsCountQuarterHoursFromMondayMidnightLocalTime() {
        #expect(WeekSlot.index(of: Self.date("2024-01-01T00:00:00Z"), in: .gmt) == 0, "2024-01-01 is a Monday")
        #expect(WeekSlot.index(of: Self.date("2024-01-01T08:20:00Z"), in: .gmt) == 33)
        #expect(WeekSlot.index(of: Self.date("2024-01-07T23:59:59Z"), in: .gmt) == 671)
        #expect(WeekSlot.index(of: Self.date("2024-01-08T13:20:00Z"), in: Self.newYork) == 33, "08:20 in New York is 13:20 UTC in winter")
        #expect(WeekSlot.index(of: Self.date("2024-07-01T12:20:00Z"), in: Self.newYork) == 33, "and 12:20 UTC in summer")
    }

    @Test func slotsAgreeWithTheProfilesHours() {
        for hours in stride(from: 0.0, to: 24 * 7, by: 2.75) {
            let date = Self.date("2024-03-04T00:00:00Z").addingTimeInterval(hours * 3600)
            #expect(WeekSlot.hourOfWeek(WeekSlot.index(of: date, in: Self.newYork)) == SpeedProfile.hourOfWeek(date, in: Self.newYork))
        }
        #expect(WeekSlot.isWeekend(5 * 96) && !WeekSlot.isWeekend(5 * 96 - 1))
    }
}
