import GRDB
import ServiceClock
import Storage

/// Checkpoints a WAL database (copies what the write-ahead log holds back
/// into the database file) from a connection and an ``UpkeepThread`` of
/// its own, every `interval` of a clock. SQLite's automatic checkpoint runs on the
/// connection that commits, inside its COMMIT, fsyncs included: the
/// writer's commit that crossed the threshold, and everyone waiting on it,
/// paid for it. With this, the writer turns its automatic checkpoint off
/// (`PRAGMA wal_autocheckpoint = 0`) and never does.
///
/// Checkpoints are passive: they copy what no reader still needs and never
/// wait for a lock, so they never hold a commit up.
final class WALCheckpointer: Sendable {
    /// Runs the upkeep for as long as this lives.
    private let upkeep: UpkeepThread

    /// Starts checkpointing the database at `path` every `interval` of `clock`.
    /// - Throws: when the database cannot be opened.
    init(path: String, interval: Duration = .milliseconds(250), clock: any ServiceClock) throws {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        configuration.label = "mytaxi-checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        upkeep = UpkeepThread(name: "mytaxi-checkpoint", clock: clock, firstPause: interval) {
            // A failed checkpoint leaves the pages in the log: the next one copies them.
            _ = try? connection.inDatabase { try $0.checkpoint(.passive) }
            return interval
        }
    }
}
