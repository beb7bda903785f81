import Foundation

/// One figure of the statistics (SPEC D9, A2): how much of `measure`
/// happened to `subject` in one UTC hour. The dispatch service writes them
/// with the log entries that decided them (a request opened, an offer
/// refused, a ride completed) and from its samples of the queues each
/// minute; the store adds every count to what it holds for the same
/// subject, hour and measure, so months of them stay one row each.
///
/// Subjects and measures are the dispatch service's names: a zone is
/// `zone/Z12`, a driver `driver/ada`; a histogram's bin is its measure with
/// the bin's lower bound, `wait_s/120`.
public struct HourlyCount: Sendable, Hashable {
    /// Whom it counts: `zone/ID` or `driver/USERNAME`.
    public var subject: String
    /// The start of its UTC hour.
    public var hour: Date
    /// What it counts.
    public var measure: String
    /// How much.
    public var count: Int64

    /// `count` of `measure` for `subject` in the hour that holds `hour`.
    public init(subject: String, hour: Date, measure: String, count: Int64) {
        self.subject = subject
        self.hour = Self.hourStart(of: hour)
        self.measure = measure
        self.count = count
    }

    /// The start of the UTC hour that holds `date`.
    public static func hourStart(of date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }

    /// `counts` with those of the same subject, hour and measure added
    /// together and zero counts left out, in subject, hour and measure
    /// order: what a store holds after writing them all.
    public static func summed(_ counts: some Sequence<HourlyCount>) -> [HourlyCount] {
        var totals: [Key: Int64] = [:]
        for count in counts { totals[Key(count), default: 0] += count.count }
        return totals.compactMap { key, total in
            total == 0 ? nil : HourlyCount(subject: key.subject, hour: key.hour, measure: key.measure, count: total)
        }.sorted { ($0.subject, $0.hour, $0.measure) < ($1.subject, $1.hour, $1.measure) }
    }

    private struct Key: Hashable {
        let subject: String
        let hour: Date
        let measure: String

        init(_ count: HourlyCount) {
            (subject, hour, measure) = (count.subject, count.hour, count.measure)
        }
    }
}
