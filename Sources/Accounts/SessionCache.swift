import Foundation
import Storage
import Synchronization

/// The session tokens this process recognised lately, by their hash, so that
/// the requests of a logged-in user cost no store read each (a dispatcher's
/// screen polls several endpoints a second; the store read was most of a
/// read request's cost).
///
/// What this process changes it forgets at once: a logout forgets its token,
/// disabling an account forgets all of the account's tokens, before the call
/// returns, so both take effect on the next request. What another process
/// sharing the store changes (a second service instance) is seen within
/// ``recheckInterval``, when an entry is read from the store again. A token
/// is never trusted past its expiry.
final class SessionCache: Sendable {
    /// A recognised session: whose it is and until when it works.
    private struct Entry {
        let account: AccountRecord
        let expiresAt: Date
        let checkedAt: Date
    }

    private struct State {
        var entries: [Data: Entry] = [:]
        /// Counts the forgets, so that a store read begun before a logout
        /// or a disable cannot put back what that forgot.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// How long an entry is trusted before the store is read again.
    let recheckInterval: TimeInterval
    /// The most entries kept; past it, the oldest checks are dropped first.
    let capacity: Int

    /// An empty cache keeping at most `capacity` sessions, each read from
    /// the store again after `recheckInterval`.
    init(recheckInterval: Duration, capacity: Int = 100_000) {
        self.recheckInterval = recheckInterval / .seconds(1)
        self.capacity = max(capacity, 1)
    }

    /// The session whose token hashes to `hash`, if it was recognised less
    /// than ``recheckInterval`` ago and has not expired by `now`.
    func session(tokenHash hash: Data, now: Date) -> AuthenticatedSession? {
        state.withLock { state in
            guard let entry = state.entries[hash] else { return nil }
            guard now < entry.expiresAt, now.timeIntervalSince(entry.checkedAt) < recheckInterval else {
                state.entries[hash] = nil
                return nil
            }
            return AuthenticatedSession(account: entry.account, tokenHash: hash, expiresAt: entry.expiresAt)
        }
    }

    /// A mark to pass to ``remember(tokenHash:account:expiresAt:checkedAt:since:)``,
    /// taken before the store is read.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Keeps a session the store recognised at `checkedAt`, unless something
    /// was forgotten since `generation` was read (the store's answer may be
    /// older than that logout or disable).
    func remember(tokenHash hash: Data, account: AccountRecord, expiresAt: Date, checkedAt: Date, since generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= capacity { Self.dropOldestHalf(of: &state.entries) }
            state.entries[hash] = Entry(account: account, expiresAt: expiresAt, checkedAt: checkedAt)
        }
    }

    /// Forgets the session whose token hashes to `hash` (a logout).
    func forget(tokenHash hash: Data) {
        state.withLock { state in
            state.generation &+= 1
            state.entries[hash] = nil
        }
    }

    /// Forgets every session of the account `accountID` (disabled).
    func forget(accountID: Int64) {
        state.withLock { state in
            state.generation &+= 1
            state.entries = state.entries.filter { $0.value.account.id != accountID }
        }
    }

    /// Makes room when full: keeps the more recently checked half.
    private static func dropOldestHalf(of entries: inout [Data: Entry]) {
        let byAge = entries.sorted { $0.value.checkedAt > $1.value.checkedAt }
        entries = Dictionary(uniqueKeysWithValues: byAge.prefix(entries.count / 2).map { ($0.key, $0.value) })
    }
}
