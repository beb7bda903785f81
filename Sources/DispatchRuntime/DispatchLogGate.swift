import Foundation
import Storage
import Synchronization

/// A write to the dispatch log as the dispatcher decides it, tagged with
/// the epoch of the engine state it was decided on: a command still to be
/// encoded (on the log's writer thread, so the dispatcher's own thread only
/// runs the engine), a snapshot encoded in the background, a ride that
/// ended, the notices of a command, or figures of the statistics.
struct EpochWrite: Sendable {
    /// What to write.
    enum Content: Sendable {
        case entry(sequence: Int64, LoggedCommand)
        case snapshot(DispatchLogSnapshot)
        case history(RideHistoryRecord)
        case notices(CommandNotices)
        case counts([HourlyCount])
    }

    let epoch: Int
    let content: Content
}

/// Keeps the dispatch log consistent after a failed write. Once a write
/// fails, every write decided on the same, now lost, state must fail too,
/// even when the store has recovered: the gate moves to a new epoch and
/// lets through only writes of that epoch, which the dispatcher uses once
/// it has reloaded its state from the log.
///
/// On a service of several nodes the gate also holds the node's dispatch
/// lease, and writes under it (``FencedDispatchLog``): once the lease is
/// taken over, the log refuses the writes, which fails them as any other
/// failed write.
final class DispatchLogGate: Sendable {
    private struct State {
        var epoch = 0
        var lease: DispatchLease?
    }

    private let state = Mutex(State())
    private let log: any DispatchLog

    init(log: any DispatchLog) {
        self.log = log
    }

    /// The epoch writes must carry to be written.
    var currentEpoch: Int { state.withLock { $0.epoch } }

    /// Writes from now on go under `lease` (nil: unfenced, a single node),
    /// in a new epoch, which the writes decided before cannot carry.
    /// - Returns: the new epoch.
    func hold(_ lease: DispatchLease?) -> Int {
        state.withLock { state in
            state.lease = lease
            state.epoch += 1
            return state.epoch
        }
    }

    /// Encodes and writes `writes` when all are of the current epoch; a
    /// failed write starts a new epoch. Runs on the group committer's thread.
    func write(_ writes: [EpochWrite]) throws(StorageError) {
        try state.withLock { (state: inout State) throws(StorageError) in
            guard writes.allSatisfy({ $0.epoch == state.epoch }) else {
                throw .writeFailed(reason: "an earlier write of the dispatch log failed; the dispatcher is reloading its state")
            }
            do throws(StorageError) {
                let encoded = try Self.encode(writes)
                if let lease = state.lease {
                    guard let fenced = log as? any FencedDispatchLog else {
                        throw .writeFailed(reason: "this dispatch log cannot be shared by several nodes; use PostgreSQL")
                    }
                    try fenced.write(encoded, holding: lease)
                } else {
                    try log.write(encoded)
                }
            } catch {
                state.epoch += 1
                throw error
            }
        }
    }

    /// The writes as the log takes them, each command as its hand-written
    /// JSON (``LoggedCommand/json()``), each user's notice as its JSON
    /// (``Notice/json()``).
    private static func encode(_ writes: [EpochWrite]) throws(StorageError) -> [DispatchLogWrite] {
        do {
            var encoded: [DispatchLogWrite] = []
            encoded.reserveCapacity(writes.count)
            for write in writes {
                switch write.content {
                case .entry(let sequence, let command):
                    encoded.append(.entry(DispatchLogEntry(sequence: sequence, payload: try command.json())))
                case .snapshot(let snapshot):
                    encoded.append(.snapshot(snapshot))
                case .history(let record):
                    encoded.append(.history(record))
                case .counts(let counts):
                    encoded.append(.counts(counts))
                case .notices(let notices):
                    for personal in notices.personal {
                        encoded.append(.notification(
                            StoredNotification(key: personal.key, recipient: personal.recipient, payload: try personal.notice.json())))
                    }
                }
            }
            return encoded
        } catch {
            throw .writeFailed(reason: "a dispatch log entry cannot be encoded: \(error)")
        }
    }
}
