import ServiceClock
import Synchronization

/// Rate limits for what a brute-force attack repeats (logins,
/// registrations): each key (a client address, a username) has a bucket of
/// `burst` attempts that refills at `perMinute` a minute; an attempt
/// finding its bucket empty is refused with a 429 that says when to try again.
final class AttemptLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Duration
    }

    private let burst: Double
    private let perSecond: Double
    private let clock: any ServiceClock
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Buckets beyond this many are pruned of the full ones, so that a
    /// flood of addresses cannot grow the memory without bound.
    private static let pruneAbove = 100_000

    /// A limiter allowing `burst` attempts at once per key, refilled at `perMinute` a minute.
    init(burst: Int, perMinute: Int, clock: any ServiceClock) {
        self.burst = Double(burst)
        self.perSecond = Double(perMinute) / 60
        self.clock = clock
    }

    /// Counts an attempt for `key`.
    /// - Throws: ``Problem`` 429 naming `what` when it has none left.
    func attempt(_ key: String, what: String) throws {
        let now = clock.uptime
        let wait: Double? = buckets.withLock { buckets in
            if buckets.count > Self.pruneAbove { prune(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) / .seconds(1) * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return (1 - bucket.tokens) / perSecond
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            return nil
        }
        if let wait {
            let seconds = Int(wait.rounded(.up))
            throw Problem.tooManyRequests("too many \(what) attempts; try again in \(seconds) s", retryAfter: seconds)
        }
    }

    private func prune(_ buckets: inout [String: Bucket], now: Duration) {
        buckets = buckets.filter { _, bucket in bucket.tokens + (now - bucket.updated) / .seconds(1) * perSecond < burst }
    }
}
