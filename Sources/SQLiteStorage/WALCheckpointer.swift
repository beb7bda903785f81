import Storage
import GRDB

/// Checkpoints a WAL database (copies what the write-ahead log holds back
/// into the database file) from a connection and a low-priority queue of
/// its own, every `interval`. SQLite's automatic checkpoint runs on the
/// connection that commits, inside its COMMIT, fsyncs included: the
/// writer's commit that crossed the threshold, and everyone waiting on it,
/// paid for it. With this, the writer turns its automatic checkpoint off
/// (`PRAGMA wal_autocheckpoint = 0`) and never does.
///
/// Checkpoints are passive: they copy what no reader still needs and never
/// wait for a lock, so they never hold a commit up.
final class WALCheckpointer: Sendable {
    /// Runs the upkeep for as long as this lives.
    private let timer: BackgroundTimer

    /// Starts checkpointing the database at `path` every `interval`.
    /// - Throws: when the database cannot be opened.
    init(path: String, interval: Duration = .milliseconds(250)) throws {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        configuration.label = "mytaxi-checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        timer = BackgroundTimer(label: "mytaxi-checkpoint", interval: interval) {
            // A failed checkpoint leaves the pages in the log: the next one copies them.
            _ = try? connection.inDatabase { try $0.checkpoint(.passive) }
        }
    }
}
