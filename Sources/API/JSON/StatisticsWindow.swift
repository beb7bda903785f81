import FixRecords
import Foundation
import Hummingbird

/// The stretch and bucket of a statistics request (`?from=&to=&bucket=`),
/// in the city's time zone: days are the city's days, and `from` and `to`
/// may be plain dates (`2026-11-23`, the city's midnight) as well as
/// ISO 8601 times. The stretch is widened to whole buckets.
struct StatisticsWindow {
    /// How long one bucket of figures lasts.
    enum Bucket: String {
        case hour
        case day

        /// The longest stretch one request may ask for, so that an answer stays a few megabytes.
        var maxDays: Int { self == .hour ? 31 : 400 }
    }

    /// The hours asked for, from the first bucket's start to the last one's end.
    let hours: Range<Date>
    let bucket: Bucket
    let calendar: Calendar

    /// The window of `request`: by default the last 7 days to `now`, by day.
    /// - Throws: ``Problem`` 400 naming a parameter that is not a time, a
    ///   date or a bucket; 422 for a stretch backwards or too long.
    init(_ request: Request, now: Date, timeZone: TimeZone) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        let query = request.uri.queryParameters
        let bucketText = query.get("bucket") ?? Bucket.day.rawValue
        guard let bucket = Bucket(rawValue: bucketText) else {
            throw Problem.badRequest("query parameter 'bucket' must be 'hour' or 'day', not '\(bucketText)'")
        }
        self.bucket = bucket
        let to = try Self.time(query.get("to"), named: "to", calendar: calendar) ?? now
        let from = try Self.time(query.get("from"), named: "from", calendar: calendar) ?? to.addingTimeInterval(-7 * 86_400)
        guard from < to else {
            throw Problem.unprocessable("'from' must be before 'to': swap them")
        }
        guard to.timeIntervalSince(from) <= Double(bucket.maxDays) * 86_400 else {
            throw Problem.unprocessable(
                "a stretch by \(bucket.rawValue) may be at most \(bucket.maxDays) days long: ask for a shorter one, or by day")
        }
        let start = Self.bucketStart(of: from, bucket, calendar)
        let lastStart = Self.bucketStart(of: to.addingTimeInterval(-0.001), bucket, calendar)
        hours = start..<Self.bucketEnd(after: lastStart, bucket, calendar)
    }

    /// The start of the bucket that holds `date`.
    func bucketStart(of date: Date) -> Date {
        Self.bucketStart(of: date, bucket, calendar)
    }

    /// Every bucket's start in the window, oldest first.
    var bucketStarts: [Date] {
        var starts: [Date] = []
        var start = hours.lowerBound
        while start < hours.upperBound {
            starts.append(start)
            start = Self.bucketEnd(after: start, bucket, calendar)
        }
        return starts
    }

    private static func bucketStart(of date: Date, _ bucket: Bucket, _ calendar: Calendar) -> Date {
        switch bucket {
        case .hour: Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
        case .day: calendar.startOfDay(for: date)
        }
    }

    private static func bucketEnd(after start: Date, _ bucket: Bucket, _ calendar: Calendar) -> Date {
        switch bucket {
        case .hour: start.addingTimeInterval(3_600)
        case .day: calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        }
    }

    /// The time `text` names: an ISO 8601 time, or a date at the city's midnight; nil when absent.
    static func time(_ text: String?, named name: String, calendar: Calendar) throws -> Date? {
        guard let text else { return nil }
        if let date = FixTime.date(iso8601: text) { return date }
        let parts = text.split(separator: "-").map { Int($0) }
        if parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day
        {
            return date
        }
        throw Problem.badRequest("query parameter '\(name)' must be a date (2026-11-23) or an ISO 8601 time (2026-11-23T08:00:00-05:00)")
    }
}
