import FixRecords
import Foundation
import Storage
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

    /// How much fix time one read of a zone's fixes covers: a page reads
    /// hour after hour from its cursor and stops once it is full, so that a
    /// page of a week-long window costs the hours up to its last fix, not
    /// the whole week.
    static let zoneFixesSliceMilliseconds: Int64 = 3_600_000

    public func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let start = after ?? FixKey.before(window.lowerBound)
        let end = window.upperBound.storedMilliseconds
        var page: [AcceptedFix] = []
        var sliceStart = start.milliseconds
        while page.count < limit, sliceStart <= end {
            let sliceEnd = min(end, sliceStart + Self.zoneFixesSliceMilliseconds - 1)
            let candidates = try await fixes(inBoxOf: territory.zone, from: sliceStart, through: sliceEnd)
            page += try FixHistoryMath.inside(territory, candidates, after: start, limit: limit - page.count)
            sliceStart = sliceEnd + 1
        }
        return page
    }

    /// The fixes taken from `first` through `last` (milliseconds) inside
    /// `zone`'s bounding box, from the journal and the store.
    private func fixes(inBoxOf zone: Zone, from first: Int64, through last: Int64) async throws(StorageError) -> [AcceptedFix] {
        let box = zone.boundingBox
        let arguments: StatementArguments = [first, last, box.minX, box.minY, box.maxX, box.maxY]
        let condition = "time_ms BETWEEN ?1 AND ?2 AND lon BETWEEN ?3 AND ?5 AND lat BETWEEN ?4 AND ?6"
        return try await journalThenStore(
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
    }
}
