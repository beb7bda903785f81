import FixRecords
import Foundation

/// The durable archive of accepted fixes (SPEC I6).
///
/// One protocol, so that the embedded SQLite archive (the default) and a
/// PostgreSQL one can be swapped without touching ingest or the API.
/// Implementations are thread-safe: one writer (the group committer) and
/// many readers (API queries) at once. Writes are synchronous, on the
/// group committer's own thread, where one call per batch earns its speed;
/// reads are async, so that no caller blocks an event loop or the
/// cooperative pool on a file. Every archive also answers the history
/// questions of ``FixHistory``.
public protocol FixArchive: FixHistory {
    /// Appends fixes and returns only when they are durable (fsync'd):
    /// a fix acknowledged after this call survives `kill -9`. A fix appended
    /// again (same taxi, device and time) is still one fix to every reader.
    func append(_ fixes: [AcceptedFix]) throws(StorageError)

    /// The fixes of `taxi` taken in `window`, oldest first.
    func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> [AcceptedFix]

    /// The newest fix of every taxi, to rebuild the live index after a restart.
    func latestFixPerTaxi() async throws(StorageError) -> [AcceptedFix]

    /// How many distinct fixes are stored.
    func count() async throws(StorageError) -> Int

    /// Deletes every fix taken before `cutoff` (the retention of `mytaxi
    /// serve --fix-retention-days`), in steps short enough that ingest
    /// never waits long for the store; returns how many it deleted. A taxi
    /// silent since before `cutoff` leaves the archive too, so it is not
    /// restored into the live fleet after a restart.
    func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int

    /// Bytes the archive takes in its store (files on disk, or the
    /// database's tables and indexes), for `/metrics`.
    func storedBytes() async throws(StorageError) -> Int64
}
