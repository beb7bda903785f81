import FixRecords
import Foundation
import GeoKit
import GRDB
import Zones

/// The history questions on the SQLite archive, answered in Swift over its
/// reads (``FixHistoryMath``); the zone's territory is tested with GEOS on
/// the fixes inside its bounding box, which SQL finds.
extension SQLiteFixArchive {
    public func track(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> FixTrack {
        FixHistoryMath.track(try await fixes(of: taxi, in: window, limit: limit))
    }

    public func dailyDistances(of taxi: TaxiID, in window: ClosedRange<Date>) async throws(StorageError) -> [DailyDistance] {
        FixHistoryMath.dailyDistances(try await fixes(of: taxi, in: window, limit: Int.max))
    }

    public func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let start = after ?? FixKey.before(window.lowerBound)
        guard Date(storedMilliseconds: start.milliseconds) <= window.upperBound else { return [] }
        let box = territory.zone.boundingBox
        let arguments: StatementArguments = [
            start.milliseconds, window.upperBound.storedMilliseconds, box.minX, box.minY, box.maxX, box.maxY,
        ]
        let condition = "time_ms BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?5 AND lat BETWEEN ?4 AND ?6"
        let candidates = try await journalThenStore(
            journal: { db in
                try Self.journalTables.flatMap { table in
                    try Row.fetchAll(db, sql: "SELECT \(FixStore.columns) FROM \(table) WHERE \(condition)", arguments: arguments)
                }
            },
            store: { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(FixStore.columns) FROM fixes
                        WHERE segment IN (SELECT segment FROM segments WHERE min_time_ms <= ?2 AND max_time_ms >= ?1)
                          AND \(condition)
                        """,
                    arguments: arguments)
            })
        return try FixHistoryMath.inside(territory, candidates, after: start, limit: limit)
    }
}
