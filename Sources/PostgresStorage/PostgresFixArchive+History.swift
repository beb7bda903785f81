import FixRecords
import Foundation
import GeoKit
import JSONKit
import Storage
import Zones

/// The history questions on PostgreSQL, answered by PostGIS over the view
/// `archived_fixes` (stored and journaled fixes): the track is
/// `ST_MakeLine` over the taxi's points, a zone's fixes are those its
/// polygon (sent as GeoJSON) `ST_Covers`, found through the GiST index on
/// `position`, less those a preceding neighbour covers (the border rule),
/// and lengths are `ST_Length` on geography over the sphere
/// (`use_spheroid` false), as ``FixHistoryMath`` measures them.
extension PostgresFixArchive {
    /// A window's bounds as the statements read them: `$2` and `$3`, milliseconds.
    private static let window = "time BETWEEN to_timestamp($2::int8 / 1000.0) AND to_timestamp($3::int8 / 1000.0)"

    public func track(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> FixTrack {
        let parameters: [PostgresValue] = [
            .text(taxi.text), .integer(window.lowerBound.storedMilliseconds), .integer(window.upperBound.storedMilliseconds),
            .integer(Int64(max(0, limit))),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("""
                SELECT ST_AsGeoJSON(line, 15) AS line,
                       CASE WHEN ST_NPoints(line) > 1 THEN ST_Length(line::geography, false) ELSE 0 END AS metres
                FROM (SELECT ST_MakeLine(position ORDER BY time, device_id) AS line
                      FROM (SELECT position, time, device_id FROM archived_fixes WHERE taxi_id = $1 AND \(Self.window)
                            ORDER BY time, device_id LIMIT $4) AS taken) AS track
                """, parameters)
            guard let line = try rows.text(0, "line") else { return FixTrack(positions: [], lengthMetres: 0) }
            return FixTrack(positions: try Self.positions(ofLineString: line), lengthMetres: try rows.double(0, "metres"))
        }
    }

    public func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let zone = territory.zone
        guard let polygon = zone.geometry.geoJSON?.serialized else {
            throw .readFailed(reason: "zone \(zone.id) has no polygon to look in")
        }
        var neighbours: [String] = []
        for neighbour in territory.precedingNeighbours {
            guard let text = neighbour.geometry.geoJSON?.serialized else {
                throw .readFailed(reason: "zone \(neighbour.id), a neighbour of zone \(zone.id), has no polygon to compare with")
            }
            neighbours.append(text)
        }
        let start = after ?? FixKey(milliseconds: window.lowerBound.storedMilliseconds - 1, taxi: TaxiID(""), device: "")
        let parameters: [PostgresValue] = [
            .text(polygon), .integer(window.lowerBound.storedMilliseconds), .integer(window.upperBound.storedMilliseconds),
            .integer(start.milliseconds), .text(start.taxi.text), .text(start.device), .integer(Int64(max(0, limit))),
            .text("[" + neighbours.joined(separator: ",") + "]"),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            try Self.fixes(connection.query("""
                WITH neighbours AS MATERIALIZED (
                    SELECT ST_SetSRID(ST_GeomFromGeoJSON(polygon::text), 4326) AS polygon FROM json_array_elements($8::json) AS polygon)
                SELECT \(Self.selectColumns) FROM archived_fixes
                WHERE \(Self.window) AND ST_Covers(ST_SetSRID(ST_GeomFromGeoJSON($1), 4326), position)
                  AND NOT EXISTS (SELECT 1 FROM neighbours WHERE ST_Covers(neighbours.polygon, archived_fixes.position))
                  AND (time, taxi_id, device_id) > (to_timestamp($4::int8 / 1000.0), $5::text COLLATE "C", $6::text COLLATE "C")
                ORDER BY time, taxi_id, device_id LIMIT $7
                """, parameters))
        }
    }

    public func dailyDistances(of taxi: TaxiID, in window: ClosedRange<Date>) async throws(StorageError) -> [DailyDistance] {
        let parameters: [PostgresValue] = [
            .text(taxi.text), .integer(window.lowerBound.storedMilliseconds), .integer(window.upperBound.storedMilliseconds),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("""
                SELECT day, fixes, CASE WHEN fixes > 1 THEN ST_Length(line::geography, false) ELSE 0 END AS metres
                FROM (SELECT floor(extract(epoch FROM time) / 86400)::int8 AS day, count(*) AS fixes,
                             ST_MakeLine(position ORDER BY time, device_id) AS line
                      FROM archived_fixes WHERE taxi_id = $1 AND \(Self.window) GROUP BY 1) AS days
                ORDER BY day
                """, parameters)
            return try (0..<rows.count).map { row in
                DailyDistance(
                    day: Date(storedMilliseconds: try rows.integer(row, "day") * 86_400_000),
                    fixes: Int(try rows.integer(row, "fixes")), metres: try rows.double(row, "metres"))
            }
        }
    }

    /// The positions of a GeoJSON LineString as `ST_AsGeoJSON` writes it.
    static func positions(ofLineString text: String) throws -> [Coordinate] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let coordinates = object["coordinates"] as? [[Double]] else {
            throw PostgresError(message: "PostGIS returned a track that is not a GeoJSON LineString")
        }
        return try coordinates.map { pair in
            guard pair.count >= 2 else { throw PostgresError(message: "PostGIS returned a track position without two numbers") }
            return Coordinate(longitude: pair[0], latitude: pair[1])
        }
    }
}
