import FixRecords
import Foundation
import Storage

extension PostgresFixArchive {
    /// Drops each day partition wholly before `cutoff` (no row-by-row
    /// delete, no bloat), then deletes the older fixes of the day that
    /// straddles it, the journal's older fixes and the latest positions of
    /// taxis silent since before it. A dropped day is forgotten by the
    /// mover's list of partitions, so that a late fix of that day gets its
    /// partition again rather than failing its move. When the calling task is cancelled (the service
    /// stopping), it stops after the current partition and returns what it
    /// deleted; the next pass goes on.
    public func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int {
        let cutoffMilliseconds = cutoff.storedMilliseconds
        let wrap: @Sendable (String) -> StorageError = { .writeFailed(reason: "deleting fixes taken before \(FixTime.iso8601(cutoff)): \($0)") }
        let partitions = try await pool.run(wrap) { connection in
            let rows = try connection.query("""
                SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'fixes'::regclass ORDER BY c.relname
                """)
            return try (0..<rows.count).map { try rows.string($0, "name") }
        }
        var deleted = 0
        for name in partitions {
            guard !Task.isCancelled else { return deleted }
            guard let day = Self.day(ofPartition: name), (day + 1) * 86_400_000 <= cutoffMilliseconds else { continue }
            deleted += try await pool.run(transaction: true, wrap) { connection in
                let rows = Int(try connection.query("SELECT count(*) AS n FROM \(name)").integer(0, "n"))
                _ = try connection.query("DROP TABLE \(name)")
                return rows
            }
            forgetPartition(day: day)
        }
        guard !Task.isCancelled else { return deleted }
        deleted += try await pool.run(transaction: true, wrap) { connection in
            let parameters: [PostgresValue] = [.integer(cutoffMilliseconds)]
            _ = try connection.query("DELETE FROM latest_fixes WHERE time < to_timestamp($1::int8 / 1000.0)", parameters)
            return try connection.query("DELETE FROM fixes WHERE time < to_timestamp($1::int8 / 1000.0)", parameters).affected
                + connection.query("DELETE FROM fix_journal WHERE time < to_timestamp($1::int8 / 1000.0)", parameters).affected
        }
        return deleted
    }

    /// The day (since 1970) of a partition named `fixes_YYYYMMDD` by
    /// `mytaxi_fix_partition`, nil for any other name: only such names
    /// are ever put into a statement, never text from elsewhere.
    static func day(ofPartition name: String) -> Int64? {
        let digits = name.dropFirst("fixes_".count)
        guard name.hasPrefix("fixes_"), digits.count == 8, digits.allSatisfy(\.isASCIIDigit),
            let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)), let day = Int(digits.suffix(2)),
            let date = FixTime.date(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        else { return nil }
        return Self.day(of: date)
    }

    /// Every partition, index, the journal and the latest positions: what
    /// the archive takes in the database.
    public func storedBytes() async throws(StorageError) -> Int64 {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            try connection.query("""
                SELECT (coalesce((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                                  WHERE inhparent = 'fixes'::regclass), 0)
                        + pg_total_relation_size('latest_fixes') + pg_total_relation_size('fix_journal'))::int8 AS bytes
                """).integer(0, "bytes")
        }
    }
}

extension Character {
    /// 0 to 9, and nothing else that Unicode calls a digit.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
