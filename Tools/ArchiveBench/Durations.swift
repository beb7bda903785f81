import Foundation

/// Percentiles of measured durations, as the benchmark tables print them.
extension Array where Element == Duration {
    /// The `percent` percentile (nearest rank), zero when empty.
    func percentile(_ percent: Int) -> Duration {
        guard !isEmpty else { return .zero }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, sorted.count * percent / 100)]
    }
}

/// Durations written in milliseconds.
enum Milliseconds {
    /// `duration` as "12.3 ms".
    static func text(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", milliseconds)
    }
}
