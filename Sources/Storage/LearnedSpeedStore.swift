import Foundation
import Synchronization

/// The weekly speeds learned from the fleet as stored: one snapshot, the
/// latest, whole. The cells are the router's own serialization; the
/// graph's fingerprint says which graph's edge numbers they use, so that a
/// service started on a rebuilt graph does not read them onto other roads.
public struct StoredLearnedSpeeds: Sendable, Equatable {
    /// ``LearnedSpeedTable``'s fingerprint of the graph learned on.
    public var graphFingerprint: String
    /// When the snapshot was taken.
    public var savedAt: Date
    /// The serialized cells.
    public var cells: Data

    /// A snapshot of `cells` learned on the graph of `graphFingerprint`, taken at `savedAt`.
    public init(graphFingerprint: String, savedAt: Date, cells: Data) {
        self.graphFingerprint = graphFingerprint
        self.savedAt = savedAt
        self.cells = cells
    }
}

/// Where the learned weekly speeds survive restarts. The SQLite and the
/// PostgreSQL store implement it; `LearnedSpeedStoreContractTests` runs both.
public protocol LearnedSpeedStore: Sendable {
    /// Replaces the stored snapshot with `speeds`, durably.
    func save(_ speeds: StoredLearnedSpeeds) async throws(StorageError)

    /// The stored snapshot, nil when nothing was learned yet.
    func load() async throws(StorageError) -> StoredLearnedSpeeds?
}

/// The learned speeds of a process that keeps nothing (tests, the in-memory stores).
public final class InMemoryLearnedSpeedStore: LearnedSpeedStore {
    private let stored = Mutex<StoredLearnedSpeeds?>(nil)

    /// An empty store.
    public init() {}

    public func save(_ speeds: StoredLearnedSpeeds) async throws(StorageError) { stored.withLock { $0 = speeds } }

    public func load() async throws(StorageError) -> StoredLearnedSpeeds? { stored.withLock { $0 } }
}
