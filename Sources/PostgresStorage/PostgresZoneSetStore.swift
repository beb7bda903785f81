import Foundation
import Storage

/// Zone set versions on PostgreSQL: each upload kept whole (its GeoJSON
/// bytes, as the API hands them back) and each of its features as a
/// PostGIS geometry in `zone_set_zone` (GiST-indexed), so that reporting
/// can join fixes to the zones of any version in SQL. Versions are never
/// changed; the active one is a one-row table.
public final class PostgresZoneSetStore: ZoneSetStore {
    private let pool: PostgresPool

    /// The store in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    private static let columns = """
        SELECT z.version, z.uploaded_by, z.uploaded_ms, z.zone_count, length(z.geojson) AS bytes, z.comment,
               a.activated_by, a.activated_ms
        FROM zone_set z LEFT JOIN active_zone_set a ON a.version = z.version
        """

    public func add(geoJSON: Data, zoneCount: Int, uploadedBy: String, at: Date, comment: String?) async throws(StorageError) -> ZoneSetVersion {
        let featureCollection = Self.isFeatureCollection(geoJSON)
        let parameters: [PostgresValue] = [
            .text(uploadedBy), .integer(at.storedMilliseconds), .integer(Int64(zoneCount)), .optional(comment), .bytes(geoJSON),
        ]
        return try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            let version = try connection.query(
                """
                INSERT INTO zone_set (uploaded_by, uploaded_ms, zone_count, comment, geojson)
                VALUES ($1, $2, $3, $4, $5) RETURNING version
                """, parameters
            ).integer(0, "version")
            if featureCollection { try Self.insertZones(of: version, geoJSON: geoJSON, on: connection) }
            return try Self.versions(connection.query(Self.columns + " WHERE z.version = $1", [.integer(version)]))[0]
        }
    }

    /// Stores each feature of `geoJSON` (a FeatureCollection) as a row of
    /// `zone_set_zone` of `version`: its place, its id and its geometry.
    static func insertZones(of version: Int64, geoJSON: Data, on connection: PostgresConnection) throws {
        try connection.query(
            """
            INSERT INTO zone_set_zone (version, feature_index, zone_id, area)
            SELECT $1, ordinality - 1, coalesce(feature->>'id', feature->'properties'->>'id'),
                   ST_SetSRID(ST_GeomFromGeoJSON(feature->'geometry'), 4326)
            FROM jsonb_array_elements(convert_from($2, 'UTF8')::jsonb->'features') WITH ORDINALITY AS f(feature, ordinality)
            WHERE jsonb_typeof(feature->'geometry') = 'object'
            """, [.integer(version), .bytes(geoJSON)])
    }

    /// Whether `geoJSON` is a FeatureCollection, whose features become
    /// geometries. The service stores only zone sets the zone engine
    /// accepted, which always are; other bytes are kept as bytes only.
    static func isFeatureCollection(_ geoJSON: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: geoJSON) as? [String: Any] else { return false }
        return object["type"] as? String == "FeatureCollection" && object["features"] is [Any]
    }

    public func versions() async throws(StorageError) -> [ZoneSetVersion] {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            try Self.versions(connection.query(Self.columns + " ORDER BY z.version DESC"))
        }
    }

    public func geoJSON(of version: Int) async throws(StorageError) -> Data? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("SELECT geojson FROM zone_set WHERE version = $1", [.integer(Int64(version))])
            return rows.count == 1 ? try rows.bytes(0, "geojson") : nil
        }
    }

    public func activate(_ version: Int, by username: String, at: Date) async throws(StorageError) -> ZoneSetVersion? {
        let parameters: [PostgresValue] = [.integer(Int64(version)), .text(username), .integer(at.storedMilliseconds)]
        return try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            guard try connection.query("SELECT 1 FROM zone_set WHERE version = $1", [parameters[0]]).count == 1 else { return nil }
            try connection.query(
                """
                INSERT INTO active_zone_set (id, version, activated_by, activated_ms) VALUES (1, $1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET
                    version = excluded.version, activated_by = excluded.activated_by, activated_ms = excluded.activated_ms
                """, parameters)
            return try Self.versions(connection.query(Self.columns + " WHERE z.version = $1", [parameters[0]])).first
        }
    }

    public func activeVersion() async throws(StorageError) -> ZoneSetVersion? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            try Self.versions(connection.query(Self.columns + " WHERE a.version IS NOT NULL")).first
        }
    }

    private static func versions(_ rows: PostgresRows) throws -> [ZoneSetVersion] {
        try (0..<rows.count).map { row in
            let activatedBy = try rows.text(row, "activated_by")
            let activatedMs = try rows.optionalInteger(row, "activated_ms")
            return ZoneSetVersion(
                version: Int(try rows.integer(row, "version")), uploadedBy: try rows.string(row, "uploaded_by"),
                uploadedAt: Date(storedMilliseconds: try rows.integer(row, "uploaded_ms")),
                zoneCount: Int(try rows.integer(row, "zone_count")), bytes: Int(try rows.integer(row, "bytes")),
                comment: try rows.text(row, "comment"),
                activation: activatedBy.flatMap { by in activatedMs.map { ZoneSetActivation(by: by, at: Date(storedMilliseconds: $0)) } })
        }
    }
}
