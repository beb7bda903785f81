import Foundation
import Storage

/// The schema of every store on PostgreSQL, as versioned forward-only
/// migrations, and what applies them (at the service's start, and by
/// `mytaxi db migrate`).
public enum PostgresSchema {
    /// Every migration, in order.
    static let migrations: [PostgresMigration] = [
        PostgresMigration(
            version: 1, description: "fix archive partitioned by day, with PostGIS points",
            sql: """
                CREATE EXTENSION IF NOT EXISTS postgis;
                CREATE TABLE fixes (
                    taxi_id text COLLATE "C" NOT NULL,
                    time timestamptz NOT NULL,
                    device_id text COLLATE "C" NOT NULL,
                    protocol text NOT NULL,
                    lon float8 NOT NULL,
                    lat float8 NOT NULL,
                    speed_kmh float8 NOT NULL,
                    heading float8 NOT NULL,
                    zone_id text COLLATE "C",
                    received_at timestamptz NOT NULL,
                    position geometry(Point, 4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lon, lat), 4326)) STORED,
                    PRIMARY KEY (taxi_id, time, device_id)
                ) PARTITION BY RANGE (time);
                CREATE INDEX fixes_position ON fixes USING gist (position);
                CREATE INDEX fixes_zone_time ON fixes (zone_id, time);
                CREATE TABLE latest_fixes (
                    taxi_id text COLLATE "C" PRIMARY KEY,
                    time timestamptz NOT NULL,
                    device_id text COLLATE "C" NOT NULL,
                    protocol text NOT NULL,
                    lon float8 NOT NULL,
                    lat float8 NOT NULL,
                    speed_kmh float8 NOT NULL,
                    heading float8 NOT NULL,
                    zone_id text COLLATE "C",
                    received_at timestamptz NOT NULL);
                CREATE FUNCTION mytaxi_fix_partition(start_ms int8, end_ms int8) RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF fixes FOR VALUES FROM (%L) TO (%L)',
                        'fixes_' || to_char(to_timestamp(start_ms / 1000.0) AT TIME ZONE 'UTC', 'YYYYMMDD'),
                        to_timestamp(start_ms / 1000.0), to_timestamp(end_ms / 1000.0));
                END $$;
                """),
        PostgresMigration(
            version: 2, description: "dispatch log, snapshot, ride history and notifications",
            sql: """
                CREATE TABLE dispatch_log (sequence int8 PRIMARY KEY, payload bytea NOT NULL);
                CREATE TABLE dispatch_snapshot (
                    id int4 PRIMARY KEY CHECK (id = 1), sequence int8 NOT NULL, payload bytea NOT NULL);
                CREATE TABLE ride_history (
                    id bigserial PRIMARY KEY, passenger text COLLATE "C" NOT NULL, taxi text COLLATE "C",
                    ended_at timestamptz NOT NULL, record bytea NOT NULL);
                CREATE INDEX ride_history_passenger ON ride_history (passenger, ended_at);
                CREATE INDEX ride_history_taxi ON ride_history (taxi, ended_at);
                CREATE TABLE notification (
                    sequence int8 NOT NULL, idx int4 NOT NULL, recipient text COLLATE "C" NOT NULL, payload bytea NOT NULL,
                    delivered boolean NOT NULL DEFAULT false, PRIMARY KEY (sequence, idx));
                CREATE INDEX notification_undelivered ON notification (recipient, sequence, idx) WHERE NOT delivered;
                """),
        PostgresMigration(
            version: 3, description: "accounts, tokens and the outbox",
            sql: """
                CREATE TABLE account (
                    id bigserial PRIMARY KEY,
                    username text NOT NULL CHECK (username <> ''),
                    role text NOT NULL CHECK (role IN (\(PostgresAccountStore.roleNames))),
                    email text,
                    password_hash text NOT NULL,
                    taxi text,
                    email_confirmed boolean NOT NULL,
                    disabled boolean NOT NULL DEFAULT false,
                    created_ms int8 NOT NULL);
                CREATE UNIQUE INDEX account_username ON account (lower(username COLLATE "C"));
                CREATE UNIQUE INDEX account_email ON account (lower(email COLLATE "C"));
                CREATE UNIQUE INDEX account_taxi ON account (lower(taxi COLLATE "C"));
                CREATE TABLE token (
                    hash bytea PRIMARY KEY CHECK (length(hash) = 32),
                    account_id int8 NOT NULL REFERENCES account (id),
                    kind text NOT NULL CHECK (kind IN ('session', 'emailConfirmation')),
                    created_ms int8 NOT NULL,
                    expires_ms int8 NOT NULL,
                    revoked boolean NOT NULL DEFAULT false);
                CREATE INDEX token_account ON token (account_id);
                CREATE INDEX token_expiry ON token (expires_ms);
                CREATE TABLE outbox (
                    id bigserial PRIMARY KEY,
                    recipient text NOT NULL,
                    subject text NOT NULL,
                    body text NOT NULL,
                    created_ms int8 NOT NULL);
                """),
        PostgresMigration(
            version: 4, description: "zone set versions, their zones as PostGIS geometries, the active version",
            sql: """
                CREATE TABLE zone_set (
                    version serial PRIMARY KEY,
                    uploaded_by text NOT NULL,
                    uploaded_ms int8 NOT NULL,
                    zone_count int4 NOT NULL,
                    comment text,
                    geojson bytea NOT NULL);
                CREATE TABLE zone_set_zone (
                    version int4 NOT NULL REFERENCES zone_set (version),
                    feature_index int4 NOT NULL,
                    zone_id text COLLATE "C",
                    area geometry(Geometry, 4326) NOT NULL,
                    PRIMARY KEY (version, feature_index));
                CREATE INDEX zone_set_zone_area ON zone_set_zone USING gist (area);
                CREATE TABLE active_zone_set (
                    id int4 PRIMARY KEY CHECK (id = 1),
                    version int4 NOT NULL REFERENCES zone_set (version),
                    activated_by text NOT NULL,
                    activated_ms int8 NOT NULL);
                """),
        PostgresMigration(
            version: 5, description: "an unindexed fix journal that commits go to, and the view readers ask",
            sql: """
                CREATE TABLE fix_journal (
                    taxi_id text COLLATE "C" NOT NULL,
                    time timestamptz NOT NULL,
                    device_id text COLLATE "C" NOT NULL,
                    protocol text NOT NULL,
                    lon float8 NOT NULL,
                    lat float8 NOT NULL,
                    speed_kmh float8 NOT NULL,
                    heading float8 NOT NULL,
                    zone_id text COLLATE "C",
                    received_at timestamptz NOT NULL
                ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000);
                CREATE VIEW archived_fixes AS
                    SELECT taxi_id, time, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_at, position
                    FROM fixes
                    UNION ALL
                    (SELECT DISTINCT ON (taxi_id, time, device_id)
                            taxi_id, time, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_at,
                            ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geometry(Point, 4326) AS position
                     FROM fix_journal AS journal
                     WHERE NOT EXISTS (
                         SELECT 1 FROM fixes AS stored
                         WHERE stored.taxi_id = journal.taxi_id AND stored.time = journal.time
                           AND stored.device_id = journal.device_id)
                     ORDER BY taxi_id, time, device_id, received_at);
                """),
        PostgresMigration(
            version: 6, description: "the latest snapshot of the speeds learned from the fleet",
            sql: """
                CREATE TABLE learned_speeds (
                    id int PRIMARY KEY CHECK (id = 1),
                    graph text NOT NULL,
                    saved_ms int8 NOT NULL,
                    cells bytea NOT NULL);
                """),
        PostgresMigration(
            version: 7, description: "ended rides looked up by their id",
            sql: """
                ALTER TABLE ride_history ADD COLUMN ride text COLLATE "C";
                UPDATE ride_history SET ride = convert_from(record, 'UTF8')::jsonb ->> 'ride';
                CREATE INDEX ride_history_ride ON ride_history (ride);
                """),
        PostgresMigration(
            version: 8, description: "the dispatch engine's lease, one holder at a time",
            sql: """
                CREATE TABLE dispatch_owner (
                    id int PRIMARY KEY CHECK (id = 1),
                    node text NOT NULL,
                    address text NOT NULL,
                    epoch int8 NOT NULL,
                    lease_until timestamptz NOT NULL);
                """),
        PostgresMigration(
            version: 9, description: "answers to requests with an Idempotency-Key, kept a day",
            sql: """
                CREATE TABLE idempotent_answer (
                    scope text COLLATE "C" PRIMARY KEY,
                    fingerprint text NOT NULL,
                    status int4 NOT NULL,
                    content_type text,
                    location text,
                    body bytea NOT NULL,
                    answered_ms int8 NOT NULL);
                CREATE INDEX idempotent_answer_age ON idempotent_answer (answered_ms);
                """),
        PostgresMigration(
            version: 10, description: "deleted accounts, password-reset and e-mail-change tokens, the audit log",
            sql: """
                ALTER TABLE account ADD COLUMN deleted boolean NOT NULL DEFAULT false;
                ALTER TABLE token ADD COLUMN email text;
                ALTER TABLE token DROP CONSTRAINT token_kind_check;
                ALTER TABLE token ADD CONSTRAINT token_kind_check CHECK (kind IN (\(PostgresAccountStore.tokenKindNames)));
                CREATE TABLE audit (
                    id bigserial PRIMARY KEY,
                    at_ms int8 NOT NULL,
                    actor text NOT NULL,
                    action text NOT NULL,
                    target text NOT NULL,
                    detail text NOT NULL);
                CREATE INDEX audit_target ON audit (lower(target COLLATE "C"), id);
                """),
        PostgresMigration(
            version: 11, description: "taxis and devices managed through the API",
            sql: """
                CREATE TABLE taxi (
                    id text COLLATE "C" PRIMARY KEY CHECK (id <> ''),
                    plate text,
                    seats int4 NOT NULL CHECK (seats > 0),
                    active boolean NOT NULL,
                    updated_ms int8 NOT NULL);
                CREATE TABLE device (
                    id text COLLATE "C" PRIMARY KEY CHECK (id <> ''),
                    taxi text COLLATE "C" NOT NULL CHECK (taxi <> ''),
                    protocol text,
                    secret text,
                    retired boolean NOT NULL,
                    updated_ms int8 NOT NULL);
                CREATE TABLE register_version (id int4 PRIMARY KEY CHECK (id = 1), version int8 NOT NULL);
                INSERT INTO register_version (id, version) VALUES (1, 0);
                """),
        PostgresMigration(
            version: 12, description: "the outbox's deliveries",
            sql: """
                ALTER TABLE outbox ADD COLUMN state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed'));
                ALTER TABLE outbox ADD COLUMN attempts int4 NOT NULL DEFAULT 0;
                ALTER TABLE outbox ADD COLUMN last_error text;
                ALTER TABLE outbox ADD COLUMN next_attempt_ms int8;
                ALTER TABLE outbox ADD COLUMN sent_ms int8;
                CREATE INDEX outbox_queued ON outbox (next_attempt_ms, id) WHERE state = 'queued';
                """),
        PostgresMigration(
            version: 13, description: "the statistics, per subject and hour",
            sql: """
                CREATE TABLE hourly_count (
                    subject text COLLATE "C" NOT NULL, hour timestamptz NOT NULL, measure text COLLATE "C" NOT NULL, count int8 NOT NULL,
                    PRIMARY KEY (subject, hour, measure));
                CREATE INDEX hourly_count_hour ON hourly_count (hour, subject);
                """),
    ]

    /// Applies the migrations `url`'s database lacks, in order, and returns
    /// the numbers applied. Several processes may start at once: an
    /// advisory lock lets one migrate while the others wait.
    /// - Throws: ``StorageError/serverUnavailable(server:reason:)`` or
    ///   ``StorageError/writeFailed(reason:)`` naming the migration that failed.
    @discardableResult
    public static func migrate(_ pool: PostgresPool) throws(StorageError) -> [Int] {
        do {
            return try pool.withConnection { connection in
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                var applied: [Int] = []
                for migration in migrations {
                    let done = try connection.transaction { connection in
                        try connection.query("SELECT pg_advisory_xact_lock(7164)")
                        guard try connection.query(
                            "SELECT 1 FROM schema_migrations WHERE version = $1", [.integer(Int64(migration.version))]
                        ).count == 0 else { return false }
                        do {
                            try connection.execute(migration.sql)
                        } catch {
                            throw StorageError.writeFailed(
                                reason: "migration \(migration.version) (\(migration.description)) failed: \(error)")
                        }
                        try connection.query(
                            "INSERT INTO schema_migrations (version, description) VALUES ($1, $2)",
                            [.integer(Int64(migration.version)), .text(migration.description)])
                        return true
                    }
                    if done { applied.append(migration.version) }
                }
                return applied
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "migrating \(pool.url): \(error)")
        }
    }

    /// The newest migration this program knows.
    public static var latestVersion: Int { migrations.last?.version ?? 0 }
}
