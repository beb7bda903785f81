import Foundation

/// The speeds of the last minutes: what matched drives measured per edge,
/// in one bucket per minute, the oldest dropped as the window moves, and
/// each minute counting less as it ages (``halfLifeSeconds``), so that an
/// accident or a closed avenue outweighs the normal traffic seen before it
/// within minutes, long before the weekly table (``LearnedSpeedTable``)
/// would notice it.
public struct LiveSpeedWindow: Sendable {
    /// How far back the window reaches, seconds.
    public let windowSeconds: Double
    /// The age at which a minute's observations count half, seconds.
    public static let halfLifeSeconds = 60.0
    private var buckets: [(minute: Int, edges: [Int32: ObservationSums])] = []

    /// An empty window of `windowSeconds` (15 minutes unless told).
    public init(windowSeconds: Double = 900) {
        self.windowSeconds = windowSeconds
    }

    /// Adds an observation of `edge` made at `date`.
    public mutating func add(edge: Int, weight: Double, logRatio: Double, at date: Date) {
        let minute = Int((date.timeIntervalSince1970 / 60).rounded(.down))
        if let index = buckets.lastIndex(where: { $0.minute == minute }) {
            buckets[index].edges[Int32(edge), default: ObservationSums()].add(weight: weight, logRatio: logRatio)
        } else {
            var edges: [Int32: ObservationSums] = [:]
            edges[Int32(edge)] = ObservationSums(weight: weight, logSum: weight * logRatio)
            buckets.append((minute, edges))
            buckets.sort { $0.minute < $1.minute }
        }
    }

    /// Drops the minutes older than the window before `now`.
    public mutating func prune(now: Date) {
        let oldest = Int(((now.timeIntervalSince1970 - windowSeconds) / 60).rounded(.down))
        buckets.removeAll { $0.minute < oldest }
    }

    /// The sums of every edge over the window at `now`, each minute's weight halved every ``halfLifeSeconds`` of its age.
    public func sums(now: Date) -> [Int32: ObservationSums] {
        var total: [Int32: ObservationSums] = [:]
        for bucket in buckets {
            let age = max(now.timeIntervalSince1970 - Double(bucket.minute * 60 + 30), 0)
            let decay = pow(0.5, age / Self.halfLifeSeconds)
            for (edge, sums) in bucket.edges {
                total[edge, default: ObservationSums()].add(sums, scaledBy: decay)
            }
        }
        return total
    }
}
