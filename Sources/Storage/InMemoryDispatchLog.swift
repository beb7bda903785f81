import Foundation
import Synchronization

/// A dispatch log in memory, for tests and simulations where nothing needs
/// to survive the process. Same contract as the SQLite log.
public final class InMemoryDispatchLog: DispatchLog {
    private struct Contents {
        var entries: [DispatchLogEntry] = []
        var snapshot: DispatchLogSnapshot?
    }

    private let contents = Mutex(Contents())

    /// An empty log.
    public init() {}

    public func write(_ writes: [DispatchLogWrite]) throws(StorageError) {
        try contents.withLock { (contents: inout Contents) throws(StorageError) in
            var next = contents
            for write in writes {
                switch write {
                case .entry(let entry):
                    try Self.checkOrder(entry.sequence, after: next.entries.last?.sequence ?? 0)
                    next.entries.append(entry)
                case .snapshot(let snapshot):
                    next.snapshot = snapshot
                }
            }
            contents = next
        }
    }

    public func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot? {
        contents.withLock { $0.snapshot }
    }

    public func entries(after sequence: Int64) async throws(StorageError) -> [DispatchLogEntry] {
        contents.withLock { contents in contents.entries.filter { $0.sequence > sequence } }
    }

    /// Rejects an entry that does not come after the last one, as a database key would.
    static func checkOrder(_ sequence: Int64, after last: Int64) throws(StorageError) {
        guard sequence > last else {
            throw .writeFailed(reason: "dispatch log entry \(sequence) does not follow entry \(last)")
        }
    }
}
