import ArgumentParser

// The options of `mytaxi serve`, one group per concern, so that `serve --help`
// lists them under headings and a reader finds a setting by what it is about.

/// `serve`'s options: the files the service reads: zones, devices, road graphs, the config file.
public struct ServeFiles: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Zone GeoJSON file.", valueName: "FILE"))
    public var zones: String?

    @Option(help: ArgumentHelp(
        "Devices file: CSV lines device_id,taxi_id[,secret[,seats]]; a device with a secret must present it (line protocol LOGIN, OsmAnd key); seats, the passengers the taxi carries (default 4), is told to the dispatcher at the driver's login. Reloaded on SIGHUP.",
        valueName: "FILE"))
    public var devices: String?

    @Option(help: ArgumentHelp(
        "The road graph file (`mytaxi graph build`) the dispatcher asks for ETAs: told on acceptance, ranking the nearest zones with free taxis, choosing a reservation's taxi. Required (here or in the config file).",
        valueName: "CITY.graph"))
    public var graph: String?

    @Option(name: .customLong("foot-graph"), help: ArgumentHelp(
        "A walking graph (`mytaxi graph build --profile foot`) for mode=foot in /v1/eta, /v1/eta/table and /v1/route, and the walk to a meeting point where no taxi can stop. (default: none: walking times are refused, and a walk to a meeting point is the straight line)",
        valueName: "FILE"))
    public var footGraph: String?

    @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
        "A weekly speed profile file for --graph (docs/speed-profile.md) instead of the graph's own. (default: the graph's)",
        valueName: "FILE"))
    public var speedProfile: String?

    @Option(name: .customLong("web-root"), help: ArgumentHelp(
        "A folder whose files replace the built-in ones of the web pages (/map, /app, /driver) of the same name: a city's own edition of the apps. (default: the built-in pages)",
        valueName: "DIR"))
    public var webRoot: String?

    @Option(help: ArgumentHelp("JSON config file; flags override it.", valueName: "FILE"))
    public var config: String?
}

/// `serve`'s options: where fixes, the dispatch log, accounts and zone sets are kept, and for how long.
public struct ServeStorage: ParsableArguments {
    public init() {}

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Directory of the embedded SQLite stores: fixes, dispatch log, accounts, zone sets, learned speeds (created if missing). Not needed with --database, which keeps nothing local.",
        valueName: "DIR"))
    public var dataDir: String?

    @Option(help: ArgumentHelp(
        "PostgreSQL database for every store (fixes, dispatch log, accounts, zone sets) instead of SQLite files in DIR; "
            + "its schema is migrated at start. Default: $\(DatabaseEnvironment.variable), else SQLite.",
        valueName: "postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
    public var database: String?

    @Option(name: .customLong("fix-retention-days"), help: ArgumentHelp(
        "Days archived fixes are kept; older ones are deleted every hour, so the disk does not fill. 0 keeps them all. (default: 90)",
        valueName: "DAYS"))
    public var fixRetentionDays: Int?

    @Option(name: .customLong("compact-after-hours"), help: ArgumentHelp(
        "Hours after which the SQLite archive's closed segments (2.5 minutes each at 10,000 taxis) are merged in the background into one segment per hour of fix time, so a taxi's one-day query reads about 24 segments instead of hundreds. 0 never compacts; PostgreSQL needs none. (default: 1)",
        valueName: "HOURS"))
    public var compactAfterHours: Int?
}

/// `serve`'s options: the HTTP API's and the terminals' listeners: ports, addresses, who may connect.
public struct ServeListeners: ParsableArguments {
    public init() {}

    @Option(name: .customLong("http-port"), help: ArgumentHelp("HTTP API port. (default: 8080)", valueName: "PORT"))
    public var httpPort: Int?

    @Option(help: ArgumentHelp(
        "Address the HTTP API (with /metrics and the fleet's positions) listens on. (default: 127.0.0.1)",
        valueName: "ADDRESS"))
    public var bind: String?

    @Option(name: .customLong("metrics-bind"), help: ArgumentHelp(
        "Serve /metrics on this address and port of its own (e.g. 127.0.0.1:9464) instead of on the API's port, so that a public API does not show it. (default: on the API's port)",
        valueName: "HOST:PORT"))
    public var metricsBind: String?

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "The reverse proxies in front of the API (CIDR blocks, comma-separated): from them, X-Forwarded-For names the client the login and registration limits count. (default: none; the connection's peer is the client)",
        valueName: "CIDR,..."))
    public var trustedProxy: String?

    @Option(name: .customLong("line-port"), help: ArgumentHelp("Line protocol port, TCP and UDP. (default: 5100)", valueName: "PORT"))
    public var linePort: String?

    @Option(name: .customLong("nmea-port"), help: ArgumentHelp("NMEA port, TCP. (default: 5005)", valueName: "PORT"))
    public var nmeaPort: String?

    @Option(name: .customLong("osmand-port"), help: ArgumentHelp("OsmAnd HTTP port. (default: 5055)", valueName: "PORT"))
    public var osmandPort: String?

    @Option(name: .customLong("teltonika-port"), help: ArgumentHelp(
        "Teltonika port, TCP and UDP. (default: 5027)", valueName: "PORT"))
    public var teltonikaPort: String?

    @Option(name: .customLong("gt06-port"), help: ArgumentHelp("GT06 port, TCP. (default: 5023)", valueName: "PORT"))
    public var gt06Port: String?

    @Option(name: .customLong("ingest-bind"), help: ArgumentHelp(
        "Address the terminals' listeners (TCP, UDP, OsmAnd) listen on, so that ingest can face the terminals' network without the API. (default: the --bind address)",
        valueName: "ADDRESS"))
    public var ingestBind: String?

    @Option(name: .customLong("ingest-allow"), help: ArgumentHelp(
        "Source addresses the terminals' TCP and UDP listeners serve, as CIDR blocks separated by commas (10.0.0.0/8,2001:db8::/32); connections and datagrams from elsewhere are turned away unread and counted in mytaxi_connections_refused_total and mytaxi_datagrams_dropped_total (reason=\"not_allowed\"). OsmAnd (phones on any network) is not restricted. (default: every address)",
        valueName: "CIDR,..."))
    public var ingestAllow: String?

    @Flag(name: .customLong("require-device-secret"), inversion: .prefixedNo, help: ArgumentHelp(
        "Refuse line-protocol and OsmAnd fixes of devices without a secret in the devices file. GT06, Teltonika and NMEA cannot carry a secret and are still accepted by device id: keep them on a private network or behind --ingest-allow. (default: off)"))
    public var requireDeviceSecret: Bool?
}

/// `serve`'s options: how long and how many connections the listeners keep.
public struct ServeConnections: ParsableArguments {
    public init() {}

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds of silence after which a terminal's connection is closed; longer than the 10-minute reporting period terminals may use. (default: 900)",
        valueName: "SECONDS"))
    public var idleTimeout: Double?

    @Option(name: .customLong("login-timeout"), help: ArgumentHelp(
        "Seconds a new terminal connection has to name a registered device (login, IMEI or a fix) before it is closed. (default: 30)",
        valueName: "SECONDS"))
    public var loginTimeout: Double?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open TCP connections of all ingest listeners together; more are closed at once and counted in mytaxi_connections_refused_total. (default: 20000)",
        valueName: "N"))
    public var maxConnections: Int?

    @Option(name: .customLong("http-timeout"), help: ArgumentHelp(
        "Seconds an HTTP client (API, OsmAnd) has to send a whole request; idle keep-alive connections close after it too. (default: 30)",
        valueName: "SECONDS"))
    public var httpTimeout: Double?

    @Option(name: .customLong("http-max-connections"), help: ArgumentHelp(
        "Open connections per HTTP server (API, OsmAnd); more wait in the listen queue. (default: 10000)",
        valueName: "N"))
    public var httpMaxConnections: Int?

    @Option(name: .customLong("drain-seconds"), help: ArgumentHelp(
        "Seconds a stop (SIGTERM, SIGINT) first answers /healthz with 503 while still serving, so that a balancer checking it moves clients to other nodes before this one closes its listeners. (default: 0, stop at once)",
        valueName: "SECONDS"))
    public var drainSeconds: Double?
}

/// `serve`'s options: one node of a service of several on one PostgreSQL database.
public struct ServeNodes: ParsableArguments {
    public init() {}

    @Option(name: .customLong("node-id"), help: ArgumentHelp(
        "This node's name in a service of several nodes on one --database: every node runs the listeners and the API, one at a time decides dispatch (the holder of the dispatch lease), the others follow its log and pass dispatch commands on to it. Needs --database and --advertise. (default: none, a single node)",
        valueName: "NAME"))
    public var nodeId: String?

    @Option(help: ArgumentHelp(
        "Where the other nodes reach this node's HTTP API, to pass dispatch commands on to it while it decides dispatch (with --node-id).",
        valueName: "http://HOST:PORT"))
    public var advertise: String?

    @Option(name: .customLong("dispatch-lease-seconds"), help: ArgumentHelp(
        "Seconds the dispatch lease runs after each renewal (every half second): after the deciding node dies, another takes dispatch over within about this long. (default: 6)",
        valueName: "SECONDS"))
    public var dispatchLeaseSeconds: Double?
}

/// `serve`'s options: the dispatch engine's rules (SPEC D2–D6) and the learned speeds' cadence.
public struct ServeDispatch: ParsableArguments {
    public init() {}

    @Option(name: .customLong("offer-timeout"), help: ArgumentHelp(
        "Seconds a driver has to answer a ride offer before it goes to the next taxi. (default: 15)", valueName: "SECONDS"))
    public var offerTimeout: Double?

    @Option(name: .customLong("confirmation-timeout"), help: ArgumentHelp(
        "Seconds a passenger told to wait in a zone's passenger queue has to confirm before the request is cancelled. (default: 30)",
        valueName: "SECONDS"))
    public var confirmationTimeout: Double?

    @Option(name: .customLong("zone-dwell"), help: ArgumentHelp(
        "Seconds a taxi must stay in another zone before it changes queue, so GPS jitter on a border does not move it. (default: 30)",
        valueName: "SECONDS"))
    public var zoneDwell: Double?

    @Option(name: .customLong("stale-after"), help: ArgumentHelp(
        "Seconds of silence after which a taxi is stale. (default: 90)", valueName: "SECONDS"))
    public var staleAfter: Double?

    @Option(name: .customLong("stale-grace"), help: ArgumentHelp(
        "Seconds a stale taxi keeps its place in its zone queue: reporting again within them, it rejoins where it was. (default: 600)",
        valueName: "SECONDS"))
    public var staleGrace: Double?

    @Option(name: .customLong("missing-client-wait"), help: ArgumentHelp(
        "Seconds a driver waits at the pickup before a missing client can be reported. (default: 300)", valueName: "SECONDS"))
    public var missingClientWait: Double?

    @Option(name: .customLong("max-reservations"), help: ArgumentHelp(
        "Open reservations one passenger may hold; the same booking twice is refused whatever this is. (default: 5)",
        valueName: "N"))
    public var maxReservations: Int?

    @Option(name: .customLong("learned-speeds-every"), help: ArgumentHelp(
        "Seconds between two puttings in force of the travel times learned from the fleet's fixes (the live layer's cadence; the weekly table is saved every 10 minutes). (default: 30)",
        valueName: "SECONDS"))
    public var learnedSpeedsEvery: Double?
}

/// `serve`'s options: the service's clock, which a simulated city may run faster.
public struct ServeClock: ParsableArguments {
    public init() {}

    @Option(name: .customLong("clock-rate"), help: ArgumentHelp(
        "Service seconds per real second, for a simulated city run faster than real time (`mytaxi simulate` follows it): every timer, timeout and learned duration is then in the simulation's seconds. Not for a real fleet. (default: 1)",
        valueName: "X"))
    public var clockRate: Double?

    @Option(name: .customLong("clock-start"), help: ArgumentHelp(
        "The service's time at start (ISO 8601, e.g. 2026-12-01T08:00:00-05:00), for a simulated city; a restart starts it here again. (default: the wall clock's)",
        valueName: "TIME"))
    public var clockStart: String?

    @Option(name: .customLong("clock-origin"), help: ArgumentHelp(
        "The real time (ISO 8601) at which the service's time was --clock-start (or, without it, this same time): the nodes of one simulated city given the same rate, start and origin tell the same time, and a restarted node goes on at the city's time. (default: the moment this node starts)",
        valueName: "TIME"))
    public var clockOrigin: String?
}

/// `serve`'s options: logins, registrations and the limits of the API's reads.
public struct ServeAccounts: ParsableArguments {
    public init() {}

    @Option(name: .customLong("session-lifetime"), help: ArgumentHelp(
        "Seconds a login's bearer token works. (default: 43200, 12 h)", valueName: "SECONDS"))
    public var sessionLifetime: Double?

    @Option(name: .customLong("confirmation-lifetime"), help: ArgumentHelp(
        "Seconds a registration's confirmation e-mail works; a passenger who has not confirmed by then is deleted, freeing the username and address. (default: 86400, 24 h)",
        valueName: "SECONDS"))
    public var confirmationLifetime: Double?

    @Option(name: .customLong("bcrypt-cost"), help: ArgumentHelp(
        "bcrypt cost of new password hashes, 4...31; each step doubles the work of a login. (default: 10)", valueName: "N"))
    public var bcryptCost: Int?

    @Option(name: .customLong("login-limit"), help: ArgumentHelp(
        "Logins a minute allowed from one client address (a dispatch office behind one NAT needs more); each username and address pair also gets 5 wrong passwords, then waits 2 s, 4 s, ... (default: 100)",
        valueName: "N"))
    public var loginLimit: Int?

    @Option(name: .customLong("registration-limit"), help: ArgumentHelp(
        "Passenger registrations (and confirmations) a minute allowed from one client address (a load test or the demo's simulated passengers need more). (default: 20)",
        valueName: "N"))
    public var registrationLimit: Int?

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The service's address as its users reach it, e.g. https://taxi.example.com: the confirmation and password-reset e-mails carry a link to the passenger app there (URL/app#confirm=TOKEN, URL/app#reset=TOKEN). (default: no link, the token only)",
        valueName: "URL"))
    public var publicURL: String?

    @Option(name: .customLong("history-max-days"), help: ArgumentHelp(
        "The longest time window, in days, one request for a taxi's archived fixes (GET /v1/taxis/{id}/fixes) may ask for; longer ones get 422. (default: 7)",
        valueName: "DAYS"))
    public var historyMaxDays: Int?
}

/// `serve`'s options: the mail relay the outbox is delivered to.
public struct ServeMail: ParsableArguments {
    public init() {}

    @Option(name: .customLong("smtp"), help: ArgumentHelp(
        "The mail relay the outbox is delivered to: smtp://[USER@]HOST[:PORT] (STARTTLS, required; 587 by default), smtps://... (TLS; 465), ?tls=none for a relay on this machine; the password from --smtp-password-file or MYTAXI_SMTP_PASSWORD, never the URL. (default: none, the outbox is only read by administrators)",
        valueName: "URL"))
    public var smtp: String?

    @Option(name: .customLong("smtp-from"), help: ArgumentHelp("The sender of the service's e-mails, e.g. no-reply@taxi.example.com (with --smtp).", valueName: "ADDRESS"))
    public var smtpFrom: String?

    @Option(name: .customLong("smtp-password-file"), help: ArgumentHelp(
        "A file whose first line is the relay login's password (else MYTAXI_SMTP_PASSWORD).", valueName: "FILE"))
    public var smtpPasswordFile: String?

    @Option(name: .customLong("smtp-ca-file"), help: ArgumentHelp(
        "A PEM file of certificate authorities the relay's certificate is also checked against (a company's own CA).", valueName: "FILE"))
    public var smtpCAFile: String?
}

/// `serve`'s options: what the service logs.
public struct ServeOutput: ParsableArguments {
    public init() {}

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, warning, error. (default: info)", valueName: "LEVEL"))
    public var logLevel: String?
}
