import API
import ArgumentParser
import Dispatch
import Foundation
import Ingest
import Logging
import ServeConfig

/// `mytaxi serve`: the running service: ingest listeners for every wire
/// protocol, the durable archive, the live fleet index and the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service: GPS ingest listeners, archive, live fleet index, dispatch engine, HTTP API.",
        discussion: """
            Listeners (TCP unless noted; Traccar's ports for GT06, Teltonika and OsmAnd):
              line 5100 (TCP and UDP), nmea 5005, osmand 5055 (HTTP), teltonika 5027 (TCP and UDP), gt06 5023.
            Every fix is archived in DIR (or in PostgreSQL with --database) before its ACK is sent; after a crash
            the live index is rebuilt from it. While PostgreSQL is down, no fix is acknowledged and /healthz says 503.
            SIGHUP reloads the devices file; SIGTERM or SIGINT stops after writing what is queued.
            Each terminal connection takes a file descriptor: the soft open-file limit is raised to the hard
            limit at start, and a warning says when the devices file has more devices than fit.
            Settings come from the flags, then the --config file (JSON, keys as the long flag names,
            e.g. {"zones": "zones.geojson", "http-port": 8080, "line-port": 5100}), then the defaults shown.
            A port of 0 picks a free port; "off" turns a listener off; a switch is true or false
            (e.g. {"require-device-secret": true}).
            A device with a secret in the devices file must present it: in a LOGIN line (line protocol) or
            the key parameter (OsmAnd); GT06, Teltonika and NMEA cannot, see --ingest-allow.
            """)

    @Option(help: ArgumentHelp("Zone GeoJSON file.", valueName: "FILE"))
    var zones: String?

    @OptionGroup var zoneFile: ZoneFileArguments

    @Option(help: ArgumentHelp(
        "Devices file: CSV lines device_id,taxi_id[,secret]; a device with a secret must present it (line protocol LOGIN, OsmAnd key). Reloaded on SIGHUP.",
        valueName: "FILE"))
    var devices: String?

    @Flag(name: .customLong("require-device-secret"), inversion: .prefixedNo, help: ArgumentHelp(
        "Refuse line-protocol and OsmAnd fixes of devices without a secret in the devices file. GT06, Teltonika and NMEA cannot carry a secret and are still accepted by device id: keep them on a private network or behind --ingest-allow. (default: off)"))
    var requireDeviceSecret: Bool?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Directory of the fix archive (created if missing).", valueName: "DIR"))
    var dataDir: String?

    @Option(help: ArgumentHelp(
        "PostgreSQL database for every store (fixes, dispatch log, accounts, zone sets) instead of SQLite files in DIR; "
            + "its schema is migrated at start. Default: $\(DatabaseURLOption.environmentVariable), else SQLite.",
        valueName: "postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
    var database: String?

    @Option(name: .customLong("http-port"), help: ArgumentHelp("HTTP API port. (default: 8080)", valueName: "PORT"))
    var httpPort: Int?

    @Option(help: ArgumentHelp(
        "Address the HTTP API (with /metrics and the fleet's positions) listens on. (default: 127.0.0.1)",
        valueName: "ADDRESS"))
    var bind: String?

    @Option(name: .customLong("ingest-bind"), help: ArgumentHelp(
        "Address the terminals' listeners (TCP, UDP, OsmAnd) listen on, so that ingest can face the terminals' network without the API. (default: the --bind address)",
        valueName: "ADDRESS"))
    var ingestBind: String?

    @Option(name: .customLong("ingest-allow"), help: ArgumentHelp(
        "Source addresses the terminals' TCP and UDP listeners serve, as CIDR blocks separated by commas (10.0.0.0/8,2001:db8::/32); connections and datagrams from elsewhere are turned away unread and counted in mytaxi_connections_refused_total and mytaxi_datagrams_dropped_total (reason=\"not_allowed\"). OsmAnd (phones on any network) is not restricted. (default: every address)",
        valueName: "CIDR,..."))
    var ingestAllow: String?

    @Option(help: ArgumentHelp("JSON config file; flags override it.", valueName: "FILE"))
    var config: String?

    @Option(name: .customLong("line-port"), help: ArgumentHelp("Line protocol port, TCP and UDP. (default: 5100)", valueName: "PORT"))
    var linePort: String?

    @Option(name: .customLong("nmea-port"), help: ArgumentHelp("NMEA port, TCP. (default: 5005)", valueName: "PORT"))
    var nmeaPort: String?

    @Option(name: .customLong("osmand-port"), help: ArgumentHelp("OsmAnd HTTP port. (default: 5055)", valueName: "PORT"))
    var osmandPort: String?

    @Option(name: .customLong("teltonika-port"), help: ArgumentHelp(
        "Teltonika port, TCP and UDP. (default: 5027)", valueName: "PORT"))
    var teltonikaPort: String?

    @Option(name: .customLong("gt06-port"), help: ArgumentHelp("GT06 port, TCP. (default: 5023)", valueName: "PORT"))
    var gt06Port: String?

    @Option(name: .customLong("stale-after"), help: ArgumentHelp(
        "Seconds of silence after which a taxi is stale. (default: 90)", valueName: "SECONDS"))
    var staleAfter: Double?

    @Option(name: .customLong("learned-speeds-every"), help: ArgumentHelp(
        "Seconds between two puttings in force of the travel times learned from the fleet's fixes (the live layer's cadence; the weekly table is saved every 10 minutes). (default: 60)",
        valueName: "SECONDS"))
    var learnedSpeedsEvery: Double?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds of silence after which a terminal's connection is closed; longer than the 10-minute reporting period terminals may use. (default: 900)",
        valueName: "SECONDS"))
    var idleTimeout: Double?

    @Option(name: .customLong("login-timeout"), help: ArgumentHelp(
        "Seconds a new terminal connection has to name a registered device (login, IMEI or a fix) before it is closed. (default: 30)",
        valueName: "SECONDS"))
    var loginTimeout: Double?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open TCP connections of all ingest listeners together; more are closed at once and counted in mytaxi_connections_refused_total. (default: 20000)",
        valueName: "N"))
    var maxConnections: Int?

    @Option(name: .customLong("http-timeout"), help: ArgumentHelp(
        "Seconds an HTTP client (API, OsmAnd) has to send a whole request; idle keep-alive connections close after it too. (default: 30)",
        valueName: "SECONDS"))
    var httpTimeout: Double?

    @Option(name: .customLong("http-max-connections"), help: ArgumentHelp(
        "Open connections per HTTP server (API, OsmAnd); more wait in the listen queue. (default: 10000)",
        valueName: "N"))
    var httpMaxConnections: Int?

    @Option(help: ArgumentHelp(
        "The road graph file (`mytaxi graph build`) the dispatcher asks for ETAs: told on acceptance, ranking the nearest zones with free taxis, choosing a reservation's taxi. Required (here or in the config file).",
        valueName: "CITY.graph"))
    var graph: String?

    @Option(name: .customLong("foot-graph"), help: ArgumentHelp(
        "A walking graph (`mytaxi graph build --profile foot`) for mode=foot in /v1/eta, /v1/eta/table and /v1/route. (default: none: walking times are refused)",
        valueName: "FILE"))
    var footGraph: String?

    @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
        "A weekly speed profile file for --graph (docs/speed-profile.md) instead of the graph's own. (default: the graph's)",
        valueName: "FILE"))
    var speedProfile: String?

    @Option(name: .customLong("offer-timeout"), help: ArgumentHelp(
        "Seconds a driver has to answer a ride offer before it goes to the next taxi. (default: 15)", valueName: "SECONDS"))
    var offerTimeout: Double?

    @Option(name: .customLong("confirmation-timeout"), help: ArgumentHelp(
        "Seconds a passenger told to wait in a zone's passenger queue has to confirm before the request is cancelled. (default: 30)",
        valueName: "SECONDS"))
    var confirmationTimeout: Double?

    @Option(name: .customLong("zone-dwell"), help: ArgumentHelp(
        "Seconds a taxi must stay in another zone before it changes queue, so GPS jitter on a border does not move it. (default: 30)",
        valueName: "SECONDS"))
    var zoneDwell: Double?

    @Option(name: .customLong("stale-grace"), help: ArgumentHelp(
        "Seconds a stale taxi keeps its place in its zone queue: reporting again within them, it rejoins where it was. (default: 600)",
        valueName: "SECONDS"))
    var staleGrace: Double?

    @Option(name: .customLong("missing-client-wait"), help: ArgumentHelp(
        "Seconds a driver waits at the pickup before a missing client can be reported. (default: 300)", valueName: "SECONDS"))
    var missingClientWait: Double?

    @Option(name: .customLong("session-lifetime"), help: ArgumentHelp(
        "Seconds a login's bearer token works. (default: 43200, 12 h)", valueName: "SECONDS"))
    var sessionLifetime: Double?

    @Option(name: .customLong("bcrypt-cost"), help: ArgumentHelp(
        "bcrypt cost of new password hashes, 4...31; each step doubles the work of a login. (default: 10)", valueName: "N"))
    var bcryptCost: Int?

    @Option(name: .customLong("login-limit"), help: ArgumentHelp(
        "Logins a minute allowed from one client address (a dispatch office behind one NAT needs more); each username and address pair also gets 5 wrong passwords, then waits 2 s, 4 s, ... (default: 100)",
        valueName: "N"))
    var loginLimit: Int?

    @Option(name: .customLong("registration-limit"), help: ArgumentHelp(
        "Passenger registrations (and confirmations) a minute allowed from one client address (a load test or the demo's simulated passengers need more). (default: 20)",
        valueName: "N"))
    var registrationLimit: Int?

    @Option(name: .customLong("max-reservations"), help: ArgumentHelp(
        "Open reservations one passenger may hold; the same booking twice is refused whatever this is. (default: 5)",
        valueName: "N"))
    var maxReservations: Int?

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "The reverse proxies in front of the API (CIDR blocks, comma-separated): from them, X-Forwarded-For names the client the login and registration limits count. (default: none; the connection's peer is the client)",
        valueName: "CIDR,..."))
    var trustedProxy: String?

    @Option(name: .customLong("metrics-bind"), help: ArgumentHelp(
        "Serve /metrics on this address and port of its own (e.g. 127.0.0.1:9464) instead of on the API's port, so that a public API does not show it. (default: on the API's port)",
        valueName: "HOST:PORT"))
    var metricsBind: String?

    @Option(name: .customLong("history-max-days"), help: ArgumentHelp(
        "The longest time window, in days, one request for a taxi's archived fixes (GET /v1/taxis/{id}/fixes) may ask for; longer ones get 422. (default: 7)",
        valueName: "DAYS"))
    var historyMaxDays: Int?

    @Option(name: .customLong("fix-retention-days"), help: ArgumentHelp(
        "Days archived fixes are kept; older ones are deleted every hour, so the disk does not fill. 0 keeps them all. (default: 90)",
        valueName: "DAYS"))
    var fixRetentionDays: Int?

    @Option(name: .customLong("compact-after-hours"), help: ArgumentHelp(
        "Hours after which the SQLite archive's closed segments (2.5 minutes each at 10,000 taxis) are merged in the background into one segment per hour of fix time, so a taxi's one-day query reads about 24 segments instead of hundreds. 0 never compacts; PostgreSQL needs none. (default: 1)",
        valueName: "HOURS"))
    var compactAfterHours: Int?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, warning, error. (default: info)", valueName: "LEVEL"))
    var logLevel: String?

    /// Checks every setting, from the flags and the config file, before
    /// anything starts: a bad one is named with exit status 2.
    func validate() throws {
        _ = try resolvedConfiguration()
    }

    func run() async throws {
        let configuration = try resolvedConfiguration()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: logLevel ?? "info") ?? .info
            return handler
        }
        let logger = Logger(label: "mytaxi")
        let service: MytaxiService
        do {
            try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            let (apiHost, ingestHost) = (configuration.bindHost, configuration.effectiveIngestBindHost)
            service = try await MytaxiService(configuration: configuration, logger: logger) { listener, port in
                // One stable line per listener on stdout, for scripts and tests (ports may be chosen by the OS).
                let host = listener == "http" ? apiHost : ingestHost
                FileHandle.standardOutput.write(Data("listening \(listener) \(host):\(port)\n".utf8))
            }
        } catch {
            printError("mytaxi serve: \(error)")
            throw ExitCode(2)
        }
        try await service.run()
    }

    /// The settings the flags give.
    var flagSettings: ServeSettings {
        var settings = ServeSettings()
        (settings.zones, settings.devices, settings.dataDir) = (zones, devices, dataDir)
        settings.database = database ?? DatabaseURLOption.fromEnvironment
        (settings.graph, settings.speedProfile, settings.footGraph) = (graph, speedProfile, footGraph)
        (settings.idProperty, settings.nameProperty, settings.overlapTolerance) =
            (zoneFile.idProperty, zoneFile.nameProperty, zoneFile.overlapTolerance)
        (settings.httpPort, settings.bind, settings.ingestBind) = (httpPort, bind, ingestBind)
        (settings.ingestAllow, settings.requireDeviceSecret) = (ingestAllow, requireDeviceSecret)
        (settings.linePort, settings.nmeaPort, settings.osmandPort) = (linePort, nmeaPort, osmandPort)
        (settings.teltonikaPort, settings.gt06Port) = (teltonikaPort, gt06Port)
        (settings.staleAfter, settings.idleTimeout, settings.loginTimeout) = (staleAfter, idleTimeout, loginTimeout)
        settings.learnedSpeedsEvery = learnedSpeedsEvery
        (settings.httpTimeout, settings.maxConnections, settings.httpMaxConnections) = (httpTimeout, maxConnections, httpMaxConnections)
        (settings.offerTimeout, settings.confirmationTimeout, settings.zoneDwell) = (offerTimeout, confirmationTimeout, zoneDwell)
        (settings.staleGrace, settings.missingClientWait) = (staleGrace, missingClientWait)
        (settings.sessionLifetime, settings.bcryptCost, settings.loginLimit) = (sessionLifetime, bcryptCost, loginLimit)
        (settings.registrationLimit, settings.historyMaxDays) = (registrationLimit, historyMaxDays)
        (settings.fixRetentionDays, settings.compactAfterHours) = (fixRetentionDays, compactAfterHours)
        (settings.maxReservations, settings.metricsBind, settings.trustedProxy) = (maxReservations, metricsBind, trustedProxy)
        return settings
    }

    /// Flags over the config file over the defaults; names what is missing or wrong.
    func resolvedConfiguration() throws -> ServiceConfiguration {
        let file = try config.map(ServeSettings.load) ?? ServeSettings()
        return try flagSettings.overlaid(on: file).configuration()
    }
}
