import Foundation
import Storage

/// A zone's statistics over a stretch of hours (an hour, a day, a week),
/// as dispatchers and planners read them (SPEC D9; seed 003 R2, R7): what
/// was asked, offered, served and cancelled, how long passengers waited,
/// and how many taxis and passengers the queues held on average.
public struct ZoneFigures: Sendable, Equatable {
    /// Each measure's count over the stretch.
    public private(set) var counts: [StatisticsMeasure: Int64] = [:]
    /// Each histogram's bins over the stretch (lower bound → count).
    public private(set) var bins: [WaitHistogram: [Int: Int64]] = [:]
    /// How many samples of the queues the city took over the stretch.
    public private(set) var samples: Int64 = 0

    /// No figures: a stretch where nothing happened.
    public init() {}

    /// Adds `count`, one of the zone's figures, and what the city's
    /// figure of the same hour says of the samples taken.
    public mutating func add(_ count: HourlyCount) {
        if let measure = StatisticsMeasure(rawValue: count.measure) {
            counts[measure, default: 0] += count.count
            return
        }
        for histogram in WaitHistogram.allCases {
            if let lower = histogram.lowerBound(of: count.measure) {
                bins[histogram, default: [:]][lower, default: 0] += count.count
                return
            }
        }
    }

    /// Counts `samples` more samples of the queues in the stretch.
    public mutating func addSamples(_ samples: Int64) {
        self.samples += samples
    }

    /// The count of `measure` over the stretch.
    public func count(_ measure: StatisticsMeasure) -> Int64 {
        counts[measure] ?? 0
    }

    /// The `quantile` of `histogram`'s durations in seconds; nil when none was counted.
    public func seconds(_ histogram: WaitHistogram, quantile: Double) -> Double? {
        WaitHistogram.quantile(quantile, of: bins[histogram] ?? [:])
    }

    /// How many of `measure` (free taxis, passengers waiting) the queue held
    /// on average over the samples; nil when no sample was taken.
    public func average(_ measure: StatisticsMeasure) -> Double? {
        samples > 0 ? Double(count(measure)) / Double(samples) : nil
    }
}
