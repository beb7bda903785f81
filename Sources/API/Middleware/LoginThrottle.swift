import ServiceClock
import Synchronization

/// Slows down password guessing per (username, client address): a pair
/// gets ``freeFailures`` wrong passwords, then must wait before each next
/// try, twice as long each time (2 s, 4 s, ... up to ``longestWait``);
/// the right password clears the pair. Only that pair waits: the same user
/// from another address (the real driver, while someone guesses their
/// taxi's password elsewhere) logs in as usual, and people behind one NAT
/// do not share a budget.
///
/// The pairs are kept by a hash, not by their text, so a flood of long
/// usernames costs a few bytes each, and a pair idle for ``idleLifetime``
/// is forgotten, so memory stays bounded by recent activity.
final class LoginThrottle: Sendable {
    private struct Record {
        var failures: Int
        var waitUntil: Duration
        var lastSeen: Duration
    }

    private struct State {
        var records: [Int: Record] = [:]
        var lastSweep: Duration = .zero
    }

    /// Wrong passwords a pair may try without waiting.
    static let freeFailures = 5
    /// The longest wait between two tries of a pair.
    static let longestWait = Duration.seconds(15 * 60)
    /// A pair not tried for this long is forgotten.
    static let idleLifetime = Duration.seconds(3600)

    private let clock: any ServiceClock
    private let state = Mutex(State())
    /// Per-process random hashing: a pair's key cannot be chosen to collide with another's.
    private let seed = Int.random(in: .min ... .max)

    init(clock: any ServiceClock) {
        self.clock = clock
    }

    /// Refuses a try of `username` from `address` while the pair must wait.
    /// - Throws: ``Problem`` 429 saying when to try again.
    func check(username: String, address: String) throws {
        let now = clock.uptime
        let wait: Duration? = state.withLock { state in
            sweep(&state, now: now)
            guard let record = state.records[key(username, address)], record.waitUntil > now else { return nil }
            return record.waitUntil - now
        }
        if let wait {
            let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
            throw Problem.tooManyRequests(
                "too many wrong passwords for this username from this address; try again in \(seconds) s", retryAfter: seconds)
        }
    }

    /// Notes a wrong password for the pair; past the free ones, the next try must wait.
    func failed(username: String, address: String) {
        let now = clock.uptime
        state.withLock { state in
            var record = state.records[key(username, address)] ?? Record(failures: 0, waitUntil: .zero, lastSeen: now)
            record.failures += 1
            record.lastSeen = now
            let beyond = record.failures - Self.freeFailures + 1
            if beyond > 0 {
                record.waitUntil = now + min(.seconds(1 << min(beyond, 20)), Self.longestWait)
            }
            state.records[key(username, address)] = record
        }
    }

    /// Clears the pair after a successful login.
    func succeeded(username: String, address: String) {
        _ = state.withLock { $0.records.removeValue(forKey: key(username, address)) }
    }

    /// The number of pairs remembered.
    var rememberedPairs: Int { state.withLock { $0.records.count } }

    private func key(_ username: String, _ address: String) -> Int {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(username.lowercased())
        hasher.combine(address)
        return hasher.finalize()
    }

    /// Forgets, once a minute, the pairs idle past ``idleLifetime``.
    private func sweep(_ state: inout State, now: Duration) {
        guard now - state.lastSweep >= .seconds(60) else { return }
        state.lastSweep = now
        state.records = state.records.filter { now - $0.value.lastSeen < Self.idleLifetime }
    }
}
