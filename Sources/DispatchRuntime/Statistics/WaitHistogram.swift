import Foundation

/// The two durations the statistics keep as histograms, per zone and hour:
/// a passenger's wait from the request to the taxi's arrival, and the time
/// from the request to its first offer (SPEC D9). Counts in fixed bins add
/// up across hours and days, which percentiles would not; a percentile is
/// read back from the bins, exact to within its bin.
public enum WaitHistogram: String, CaseIterable, Sendable {
    /// From the request to the taxi's arrival at the pickup.
    case wait = "wait_s"
    /// From the request to its first offer to a taxi.
    case timeToOffer = "offer_s"

    /// The bins' lower bounds in seconds: finer where waits mostly fall,
    /// the last one open (an hour or more).
    public static let lowerBounds = [0, 15, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1_200, 1_800, 2_700, 3_600]

    /// The measure of the bin that holds `duration`: `wait_s/120`.
    func measure(for duration: Duration) -> String {
        let seconds = max(0, duration / .seconds(1))
        let bin = Self.lowerBounds.last { Double($0) <= seconds } ?? 0
        return "\(rawValue)/\(bin)"
    }

    /// The bin's lower bound `measure` names when it is one of this
    /// histogram's bins, nil for any other measure.
    public func lowerBound(of measure: String) -> Int? {
        guard measure.hasPrefix(rawValue + "/") else { return nil }
        return Int(measure.dropFirst(rawValue.count + 1))
    }

    /// The `quantile` (0.5 for the median) of the durations counted in
    /// `bins` (lower bound → count), in seconds, placed evenly within its
    /// bin; the open bin answers its lower bound; nil when nothing was counted.
    public static func quantile(_ quantile: Double, of bins: [Int: Int64]) -> Double? {
        let total = bins.values.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = quantile * Double(total)
        var below: Int64 = 0
        for (index, lower) in lowerBounds.enumerated() {
            let count = bins[lower] ?? 0
            guard count > 0 else { continue }
            if Double(below + count) >= rank {
                guard index + 1 < lowerBounds.count else { return Double(lower) }
                let width = Double(lowerBounds[index + 1] - lower)
                return Double(lower) + width * max(0, rank - Double(below)) / Double(count)
            }
            below += count
        }
        return Double(lowerBounds.last ?? 0)
    }
}
