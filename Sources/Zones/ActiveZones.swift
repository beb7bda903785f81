import Synchronization

/// The zone set the running service assigns points with now (SPEC Z4): one
/// index, swapped whole when a planner activates another set, so that a
/// reader gets either the old or the new index, never a mix. Readers take
/// ``current`` once per request and use that one throughout.
public final class ActiveZones: Sendable {
    private let index: Mutex<ZoneIndex>

    /// Starts with `index` in force.
    public init(_ index: ZoneIndex) {
        self.index = Mutex(index)
    }

    /// The index in force.
    public var current: ZoneIndex {
        index.withLock { $0 }
    }

    /// Puts `newIndex` in force for every read that follows; returns the one it replaces.
    @discardableResult
    public func replace(with newIndex: ZoneIndex) -> ZoneIndex {
        index.withLock { current in
            defer { current = newIndex }
            return current
        }
    }
}
