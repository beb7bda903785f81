import DispatchRuntime
import Foundation
import Hummingbird

/// The calendar month of a driver's report (`?month=2026-11`) in the
/// city's time zone; by default the month of `now`.
struct DriverMonth {
    /// The month as asked: `2026-11`.
    let text: String
    /// Its hours, from its first midnight to the next month's.
    let hours: Range<Date>

    /// - Throws: ``Problem`` 400 when `text` is not a month `YYYY-MM`.
    init(_ text: String?, now: Date, timeZone: TimeZone) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components: DateComponents
        if let text {
            let parts = text.split(separator: "-").map { Int($0) }
            guard parts.count == 2, let year = parts[0], let month = parts[1], (1...12).contains(month), (1000...9999).contains(year) else {
                throw Problem.badRequest("query parameter 'month' must be a month, e.g. 2026-11")
            }
            components = DateComponents(year: year, month: month, day: 1)
        } else {
            components = DateComponents(
                year: calendar.component(.year, from: now), month: calendar.component(.month, from: now), day: 1)
        }
        guard let start = calendar.date(from: components), let end = calendar.date(byAdding: .month, value: 1, to: start) else {
            throw Problem.badRequest("query parameter 'month' must be a month, e.g. 2026-11")
        }
        self.text = String(format: "%04d-%02d", components.year ?? 0, components.month ?? 0)
        hours = start..<end
    }
}

/// The answer of `GET /v1/drivers/{username}/report`: a driver's month
/// for the company's review (seed 000 D3).
struct DriverReportJSON: Encodable {
    var driver: String
    var month: String
    var from: String
    var to: String
    var timeZone: String
    var offers: Int64
    var accepted: Int64
    var refused: Int64
    var timedOut: Int64
    var completed: Int64
    var clientMissing: Int64
    var hoursOnDuty: Double
    var hoursAvailable: Double
    var kilometres: Double
    var shifts: [ShiftJSON]

    /// A stretch of hours on duty in one taxi, and what the archive says it drove.
    struct ShiftJSON: Encodable {
        var taxiId: String
        var from: String
        var to: String
        var hoursOnDuty: Double
        var kilometres: Double
    }

    init(driver: String, month: DriverMonth, figures: DriverFigures, shifts: [ShiftJSON], timeZone: TimeZone) {
        let local = LocalTime(timeZone: timeZone)
        self.driver = driver
        self.month = month.text
        from = local.text(month.hours.lowerBound)
        to = local.text(month.hours.upperBound)
        self.timeZone = timeZone.identifier
        offers = figures.count(.offers)
        accepted = figures.count(.accepted)
        refused = figures.count(.refused)
        timedOut = figures.count(.timedOut)
        completed = figures.count(.served)
        clientMissing = figures.count(.clientMissing)
        hoursOnDuty = StatisticsController.hundredths(Double(figures.secondsOnDuty) / 3_600)
        hoursAvailable = StatisticsController.hundredths(Double(figures.count(.availableSeconds)) / 3_600)
        kilometres = StatisticsController.hundredths(shifts.reduce(0) { $0 + $1.kilometres })
        self.shifts = shifts
    }
}
