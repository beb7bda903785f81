import FixRecords
import Foundation
import GeoKit
import Zones

/// The history questions dispatchers and planners ask of the archive
/// (`GET /v1/taxis/{id}/track`, `/v1/zones/{id}/fixes`,
/// `/v1/taxis/{id}/distance`): where a taxi went, which fixes fell inside a
/// zone, how far a taxi drove each day.
///
/// Every archive answers them (``FixArchive`` refines this protocol): the
/// embedded ones in Swift over their reads (``FixHistoryMath``), PostgreSQL
/// with PostGIS (`ST_MakeLine`, `ST_Covers`, `ST_Length`), all bound by
/// `FixArchiveContractTests`. Distances are great-circle lengths on a
/// sphere of the WGS84 mean radius (``Coordinate/earthRadiusMetres``),
/// in metres, as PostGIS's `ST_Length(geography, false)` measures them.
/// Callers bound the window; an answer holds every fix of it.
public protocol FixHistory: Sendable {
    /// The positions of `taxi` in `window`, oldest first (each fix once,
    /// in the archive's order: time, then device), at most `limit`, and
    /// the length of the line through them.
    func track(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> FixTrack

    /// The fixes of every taxi in `window` that lie in `territory` (its
    /// zone's polygon, border included, less what the zones before it
    /// cover: a fix on a border two zones share is in the answer of the
    /// one zone the border rule gives it), ordered by time, taxi and
    /// device, starting after `after` (nil: from the window's start), at
    /// most `limit`.
    func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix]

    /// How far `taxi` drove on each UTC day of `window` on which it sent a
    /// fix: the length of the line through that day's fixes, oldest day first.
    func dailyDistances(of taxi: TaxiID, in window: ClosedRange<Date>) async throws(StorageError) -> [DailyDistance]
}

/// A taxi's track: its positions in order, and the line's length.
public struct FixTrack: Sendable, Equatable {
    /// The positions, oldest first.
    public let positions: [Coordinate]
    /// The length of the line through them, metres (0 for fewer than two).
    public let lengthMetres: Double

    /// A track through `positions`, `lengthMetres` long.
    public init(positions: [Coordinate], lengthMetres: Double) {
        self.positions = positions
        self.lengthMetres = lengthMetres
    }
}

/// How far one taxi drove on one UTC day.
public struct DailyDistance: Sendable, Equatable {
    /// The day's start, 00:00 UTC.
    public let day: Date
    /// How many fixes it sent that day (in the window asked for).
    public let fixes: Int
    /// The length of the line through them, metres.
    public let metres: Double

    /// `metres` driven through `fixes` fixes on `day`.
    public init(day: Date, fixes: Int, metres: Double) {
        self.day = day
        self.fixes = fixes
        self.metres = metres
    }
}

/// Where a fix stands in the order of ``FixHistory/fixes(inside:in:after:limit:)``:
/// time (to the millisecond, as stored), taxi, device; the place a page ends.
public struct FixKey: Sendable, Hashable, Comparable {
    /// The fix's time, milliseconds since 1970.
    public let milliseconds: Int64
    /// The taxi.
    public let taxi: TaxiID
    /// The device.
    public let device: String

    /// The key of `fix`.
    public init(of fix: AcceptedFix) {
        self.init(milliseconds: fix.time.storedMilliseconds, taxi: fix.taxiId, device: fix.deviceId)
    }

    /// The key of the fix `device` of `taxi` took at `milliseconds`.
    public init(milliseconds: Int64, taxi: TaxiID, device: String) {
        self.milliseconds = milliseconds
        self.taxi = taxi
        self.device = device
    }

    /// The key just before every fix taken at `date` or later.
    package static func before(_ date: Date) -> FixKey {
        FixKey(milliseconds: date.storedMilliseconds - 1, taxi: TaxiID(""), device: "")
    }

    /// Time first, then taxi and device by their UTF-8 bytes, as PostgreSQL's
    /// `COLLATE "C"` and SQLite's `BINARY` order them.
    public static func < (lhs: FixKey, rhs: FixKey) -> Bool {
        if lhs.milliseconds != rhs.milliseconds { return lhs.milliseconds < rhs.milliseconds }
        if lhs.taxi != rhs.taxi { return lhs.taxi.text.utf8.lexicographicallyPrecedes(rhs.taxi.text.utf8) }
        return lhs.device.utf8.lexicographicallyPrecedes(rhs.device.utf8)
    }
}
