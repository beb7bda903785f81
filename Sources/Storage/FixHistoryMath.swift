import FixRecords
import Foundation
import GeoKit
import Zones

/// The history answers worked out in Swift from fixes an archive read,
/// for the archives without a spatial database (SQLite, in memory): the
/// same answers PostGIS gives the PostgreSQL archive.
public enum FixHistoryMath {
    /// The length of the line through `positions`, metres: the sum of its
    /// legs' great-circle distances (``Coordinate/haversineDistance(to:)``).
    public static func length(of positions: [Coordinate]) -> Double {
        zip(positions, positions.dropFirst()).reduce(0) { $0 + $1.0.haversineDistance(to: $1.1) }
    }

    /// The track through `fixes` (oldest first).
    package static func track(_ fixes: [AcceptedFix]) -> FixTrack {
        let positions = fixes.map(\.coordinate)
        return FixTrack(positions: positions, lengthMetres: length(of: positions))
    }

    /// The distance of each UTC day of `fixes` (one taxi's, oldest first).
    package static func dailyDistances(_ fixes: [AcceptedFix]) -> [DailyDistance] {
        let days = Dictionary(grouping: fixes) { utcDay(of: $0.time) }
        return days.keys.sorted().map { day in
            DailyDistance(
                day: Date(storedMilliseconds: day * 86_400_000), fixes: days[day]!.count,
                metres: length(of: days[day]!.map(\.coordinate)))
        }
    }

    /// The UTC day of `date`, in days since 1970.
    static func utcDay(of date: Date) -> Int64 {
        let milliseconds = date.storedMilliseconds
        return milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds + 1) / 86_400_000 - 1
    }

    /// Of `fixes` (in any order, a fix possibly twice), those in
    /// `territory`, after `after`, in ``FixKey`` order, each once, at most `limit`.
    package static func inside(_ territory: ZoneTerritory, _ fixes: [AcceptedFix], after: FixKey, limit: Int) throws(StorageError) -> [AcceptedFix] {
        let polygon: ZoneTerritory.PreparedTest
        do {
            polygon = try territory.preparedTest()
        } catch {
            throw .readFailed(reason: "the polygons of zone \(territory.zone.id) and its neighbours cannot be prepared: \(error)")
        }
        var seen = Set<FixKey>()
        let keyed = fixes.map { (FixKey(of: $0), $0) }.filter { $0.0 > after }.sorted { $0.0 < $1.0 }
        var page: [AcceptedFix] = []
        for (key, fix) in keyed where page.count < limit && polygon.contains(fix.coordinate) && seen.insert(key).inserted {
            page.append(fix)
        }
        return page
    }
}
