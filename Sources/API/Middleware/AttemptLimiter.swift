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
    private let buckets = Mutex<(byKey: [String: Bucket], lastSweep: Duration)>(([:], .zero))

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
        let wait: Double? = buckets.withLock { state in
            if now - state.lastSweep >= .seconds(60) {
                state.lastSweep = now
                forgetRefilled(&state.byKey, now: now)
            }
            var bucket = state.byKey[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) / .seconds(1) * perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                state.byKey[key] = bucket
                return (1 - bucket.tokens) / perSecond
            }
            bucket.tokens -= 1
            state.byKey[key] = bucket
            return nil
        }
        if let wait {
            let seconds = Int(wait.rounded(.up))
            throw Problem.tooManyRequests("too many \(what) attempts; try again in \(seconds) s", retryAfter: seconds)
        }
    }

    /// Forgets the buckets that have refilled (keys idle long enough that
    /// a new bucket would be the same), once a minute, so that a flood of
    /// addresses cannot grow the memory past a minute's worth.
    private func forgetRefilled(_ buckets: inout [String: Bucket], now: Duration) {
        buckets = buckets.filter { _, bucket in bucket.tokens + (now - bucket.updated) / .seconds(1) * perSecond < burst }
    }
}
