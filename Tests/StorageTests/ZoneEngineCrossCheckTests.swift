import Foundation
import GeoKit
import JSONKit
import Testing
import Zones
@testable import PostgresStorage

/// The zone engine against PostGIS: a million random points over the NYC
/// taxi zones, and points exactly on the zones' vertices (where shared
/// borders meet, so that the border rule decides), get the same zone from
/// our index as from one spatial join in PostgreSQL: `ST_Covers` (border
/// included) and, among the zones covering a point, the smallest id as
/// ``ZoneID`` orders ids (whole numbers numerically, first; others by
/// their characters), which is ``BorderRule`` in SQL.
@Suite(.timeLimit(.minutes(20))) struct ZoneEngineCrossCheckTests {
    static let zonesPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/data/nyc/taxi_zones.geojson").path
    static var zonesAvailable: Bool { FileManager.default.fileExists(atPath: zonesPath) }

    static let randomPoints = 1_000_000
    /// Every how many-th ring vertex is also checked.
    static let vertexStride = 5

    /// The border rule as SQL: of the ids in `zone_id` of the zones
    /// covering a point, the one ``ZoneID`` puts first.
    static let borderRuleOrder = """
        zone_id !~ '^[+-]?[0-9]{1,18}$', CASE WHEN zone_id ~ '^[+-]?[0-9]{1,18}$' THEN zone_id::int8 END, zone_id COLLATE "C"
        """

    @Test(
        .enabled(if: zonesAvailable, "../shared/data/nyc/taxi_zones.geojson is absent"),
        .enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aMillionPointsGetTheZonePostGISGives() throws {
        let started = ContinuousClock.now
        let zoneSet = try ZoneFileLoader.load(path: Self.zonesPath, options: ZoneFileOptions(idProperty: "LocationID", nameProperty: "zone")).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        let box = try #require(zoneSet.boundingBox)
        var random = SplitMix64(state: 16)
        var points = (0..<Self.randomPoints).map { _ in
            Coordinate(longitude: box.minX + random.nextUnit() * box.width, latitude: box.minY + random.nextUnit() * box.height)
        }
        let vertices = zoneSet.zones.flatMap { $0.geometry.polygons.flatMap(\.polygonRings).flatMap { $0 } }
        points += stride(from: 0, to: vertices.count, by: Self.vertexStride).map { vertices[$0] }

        var copy = ""
        copy.reserveCapacity(points.count * 48)
        var inside = 0
        for (number, point) in points.enumerated() {
            let zone = index.zone(at: point)
            if zone != nil { inside += 1 }
            copy += "\(number)\t\(point.longitude)\t\(point.latitude)\t\(zone?.id.text ?? "\\N")\n"
        }
        let lookedUp = ContinuousClock.now

        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let disagreements = try database.pool.withConnection { connection in
            try connection.execute("""
                CREATE TABLE crosscheck_zone (zone_id text COLLATE "C" NOT NULL, area geometry(Geometry, 4326) NOT NULL);
                CREATE TABLE crosscheck_point (
                    id int4 PRIMARY KEY, lon float8 NOT NULL, lat float8 NOT NULL, ours text COLLATE "C",
                    position geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED);
                """)
            for zone in zoneSet.zones {
                let polygon = try #require(zone.geometry.geoJSON?.serialized, "zone \(zone.id) has no polygon")
                try connection.query(
                    "INSERT INTO crosscheck_zone VALUES ($1, ST_SetSRID(ST_GeomFromGeoJSON($2), 4326))", [.text(zone.id.text), .text(polygon)])
            }
            try connection.copyIn("COPY crosscheck_point (id, lon, lat, ours) FROM STDIN", data: Array(copy.utf8))
            try connection.execute("""
                CREATE INDEX ON crosscheck_point USING gist (position);
                CREATE INDEX ON crosscheck_zone USING gist (area);
                ANALYZE crosscheck_point; ANALYZE crosscheck_zone;
                """)
            return try connection.query("""
                SELECT p.id, p.lon, p.lat, p.ours, j.theirs
                FROM crosscheck_point p
                LEFT JOIN (SELECT p.id, (array_agg(z.zone_id ORDER BY \(Self.borderRuleOrder)))[1] AS theirs
                           FROM crosscheck_point p JOIN crosscheck_zone z ON ST_Covers(z.area, p.position)
                           GROUP BY p.id) j ON j.id = p.id
                WHERE p.ours IS DISTINCT FROM j.theirs
                ORDER BY p.id
                """)
        }
        let joined = ContinuousClock.now
        let examples = try (0..<min(10, disagreements.count)).map { row in
            "point \(try disagreements.string(row, "id")) (\(try disagreements.string(row, "lon")),\(try disagreements.string(row, "lat"))): "
                + "ours \(try disagreements.text(row, "ours") ?? "none"), PostGIS \(try disagreements.text(row, "theirs") ?? "none")"
        }
        print("""
            zone engine vs PostGIS: \(points.count) points (\(Self.randomPoints) random, \(points.count - Self.randomPoints) on vertices), \
            \(inside) inside a zone, \(disagreements.count) disagreement(s); lookup and COPY text \(lookedUp - started), \
            PostgreSQL load and join \(joined - lookedUp)
            """)
        #expect(disagreements.count == 0, "\(examples.joined(separator: "; "))")
        #expect(inside > Self.randomPoints / 3, "most of the bounding box is in the city's zones")
    }
}
