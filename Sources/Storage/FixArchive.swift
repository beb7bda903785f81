import FixRecords
import Foundation

/// The durable archive of accepted fixes (SPEC I6).
///
/// One protocol, so that the embedded SQLite archive (the default) and a
/// PostgreSQL one can be swapped without touching ingest or the API.
/// Implementations are thread-safe: one writer (the group committer) and
/// many readers (API queries) at once.
public protocol FixArchive: Sendable {
    /// Appends fixes and returns only when they are durable (fsync'd):
    /// a fix acknowledged after this call survives `kill -9`. A fix appended
    /// again (same taxi, device and time) is still one fix to every reader.
    func append(_ fixes: [AcceptedFix]) throws

    /// The fixes of `taxi` taken in `window`, oldest first.
    func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) throws -> [AcceptedFix]

    /// The newest fix of every taxi, to rebuild the live index after a restart.
    func latestFixPerTaxi() throws -> [AcceptedFix]

    /// How many distinct fixes are stored.
    func count() throws -> Int
}

/// Why the archive failed; the message names the file and what to do.
public struct ArchiveError: Error, CustomStringConvertible, Sendable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
