import Accounts
import API
import DispatchCore
import FixRecords
import Foundation
import Ingest
import Mail
import NIOCore
import ServiceClock
import Zones

/// Everything `mytaxi serve` needs, from flags, a config file, or defaults
/// (in that order of precedence).
public struct ServiceConfiguration: Sendable {
    /// The zone GeoJSON file.
    public var zonesPath: String
    /// The road graph file (`mytaxi graph build`) the dispatcher's ETAs come from.
    public var graphPath: String
    /// A weekly speed profile for the graph; nil: the graph's own.
    public var speedProfilePath: String?
    /// The walking graph for `mode=foot` (SPEC R5); nil refuses walking times.
    public var footGraphPath: String?
    /// bcrypt's cost and the lifetimes of login and confirmation tokens (SPEC A2).
    public var accountSettings = AccountSettings()
    /// Logins a minute allowed from one client address (SPEC A2's brute-force limit).
    public var loginsPerAddressPerMinute = APIServer.loginBurstPerAddress
    /// Passenger registrations and confirmations a minute allowed from one client address.
    public var registrationsPerAddressPerMinute = APIServer.registrationBurst
    /// The longest window one request for a taxi's archived fixes may ask for (`--history-max-days`).
    public var historyMaxWindow = APIServer.defaultHistoryMaxWindow
    /// How long archived fixes are kept (`--fix-retention-days`); nil keeps them all.
    public var fixRetention: TimeInterval? = ServiceConfiguration.defaultFixRetention
    /// 90 days unless told otherwise: a season of tracks for complaints,
    /// disputes and planning, while the disk of a 10,000-taxi fleet stays bounded.
    public static let defaultFixRetention: TimeInterval = 90 * 86_400
    /// How old the newest fix of a closed SQLite archive segment must be
    /// before it is merged into its hour's segment (`--compact-after-hours`);
    /// nil never compacts.
    public var compactAfter: TimeInterval? = ServiceConfiguration.defaultCompactAfter
    /// An hour unless told otherwise: the hour just ended is merged soon
    /// after, while the segments still being filled are left alone.
    public static let defaultCompactAfter: TimeInterval = 3_600
    /// How to read the zone file (id and name properties, overlap tolerance).
    public var zoneFileOptions = ZoneFileOptions()
    /// The `device_id,taxi_id[,secret[,seats]]` CSV file; reloaded on SIGHUP.
    public var devicesPath: String
    /// `--require-device-secret`: a device without a secret in the devices
    /// file is refused over the line protocol and OsmAnd (GT06, Teltonika
    /// and NMEA cannot carry one). A device that has a secret must present
    /// it either way.
    public var requireDeviceSecret = false
    /// `--ingest-allow`: the source addresses the terminals' TCP and UDP
    /// listeners serve; empty: every address.
    public var ingestAllowList = IngestAllowList()
    /// The directory of the embedded SQLite stores (fixes, dispatch log,
    /// accounts, zone sets, learned speeds); nil when every store is on
    /// PostgreSQL (``databaseURL``), where a node keeps nothing local.
    public var dataDirectory: String?
    /// The PostgreSQL database every store lives in (`postgres://...`);
    /// nil: the embedded SQLite stores in ``dataDirectory``.
    public var databaseURL: String?
    /// This node's name and address in a service of several nodes on
    /// ``databaseURL`` (`--node-id`); nil: the service's only node, which decides dispatch.
    public var node: ClusterNode?
    /// Address the HTTP API (and so `/metrics` and the fleet's positions) binds to.
    public var bindHost: String = "127.0.0.1"
    /// Address the terminals' listeners (TCP, UDP, OsmAnd) bind to; nil: ``bindHost``.
    /// Exposing ingest to the terminals' network need not expose the API.
    public var ingestBindHost: String?
    /// HTTP API port.
    public var httpPort: Int = 8080
    /// The reverse proxies whose `X-Forwarded-For` names the client.
    public var trustedProxies = TrustedProxies()
    /// Where `/metrics` is served on a listener of its own; nil: on the API's port.
    public var metricsAddress: (host: String, port: Int)?
    /// TCP listener port per protocol; 0 picks a free port, absent means off.
    public var tcpPorts: [WireProtocol: Int] = Self.defaultTCPPorts
    /// UDP listener port per protocol; 0 picks a free port, absent means off.
    public var udpPorts: [WireProtocol: Int] = Self.defaultUDPPorts
    /// Silence after which a taxi is stale, seconds.
    public var staleAfterSeconds: Double = 90
    /// Seconds between two puttings in force of the speeds learned from the fleet (``SpeedLearningService``).
    public var learnedSpeedsEverySeconds: Double = 30
    /// Silence after which an identified terminal's connection is closed,
    /// seconds: longer than the 10-minute reporting period SPEC I1 allows.
    public var idleTimeoutSeconds: Double = 900
    /// `--drain-seconds`: how long a stop first answers `/healthz` with 503
    /// while still serving, for a balancer to move off; 0: stop at once.
    public var drainSeconds: Double = 0
    /// Time a new terminal connection has to name a registered device, seconds.
    public var loginTimeoutSeconds: Double = 30
    /// Open TCP connections of all ingest listeners together.
    public var maxIngestConnections = 20_000
    /// Time an HTTP client (API or OsmAnd) has to send a whole request, and
    /// after which an idle keep-alive connection closes, seconds.
    public var httpTimeoutSeconds: Double = 30
    /// Open connections per HTTP server (API, OsmAnd); beyond it new ones
    /// wait in the listen queue.
    public var maxHTTPConnections = 10_000
    /// Where the map page's Leaflet files are served from (Debian's libjs-leaflet).
    public var leafletDirectory = APIServer.debianLeafletDirectory
    /// A folder whose files replace the web pages' built-in ones (`--web-root`); nil: none.
    public var webRoot: String?
    /// The mail relay the outbox is delivered to (`--smtp`); nil: the outbox is only read by administrators.
    public var smtpRelay: SMTPRelay?
    /// Fix validation limits.
    public var validation = ValidationRules()
    /// The dispatch engine's durations (offer timeout, confirmation, dwell, stale grace, missing client).
    public var dispatchRules = DispatchRules()
    /// Service seconds per real second: 1 in service; more for a simulated
    /// city running faster than real time (``ScaledClock``).
    public var clockRate: Double = 1
    /// The service's time when it starts, for a simulated city that runs
    /// at another time of day; nil: the wall clock's.
    public var clockStart: Date?
    /// The real time at which the service's time was `clockStart` (or this
    /// same time when there is none), shared by the nodes of one simulated
    /// city; nil: the moment the service starts.
    public var clockOrigin: Date?

    public static let defaultTCPPorts: [WireProtocol: Int] = [
        .line: WireProtocol.line.defaultPort, .nmea: WireProtocol.nmea.defaultPort,
        .osmand: WireProtocol.osmand.defaultPort, .teltonika: WireProtocol.teltonika.defaultPort,
        .gt06: WireProtocol.gt06.defaultPort,
    ]
    public static let defaultUDPPorts: [WireProtocol: Int] = [
        .line: WireProtocol.line.defaultPort, .teltonikaUDP: WireProtocol.teltonikaUDP.defaultPort,
    ]

    /// The address the terminals' listeners bind to.
    public var effectiveIngestBindHost: String { ingestBindHost ?? bindHost }

    /// The ingest listeners' deadlines and connection limit.
    public var ingestLimits: IngestConnectionLimits {
        var limits = IngestConnectionLimits()
        limits.idleTimeout = .milliseconds(Int64(idleTimeoutSeconds * 1000))
        limits.identificationTimeout = .milliseconds(Int64(loginTimeoutSeconds * 1000))
        limits.maxConnections = maxIngestConnections
        return limits
    }

    /// The clock every part of the service reads: the machine's, unless
    /// a rate or a start was set for a simulation.
    public func makeClock() -> any ServiceClock {
        guard clockRate != 1 || clockStart != nil else { return SystemClock() }
        return ScaledClock(rate: clockRate, start: clockStart ?? clockOrigin ?? Date(), origin: clockOrigin)
    }

    /// The configuration of a service on these files, with every other value at its default.
    public init(zonesPath: String, graphPath: String, devicesPath: String, dataDirectory: String? = nil) {
        self.zonesPath = zonesPath
        self.graphPath = graphPath
        self.devicesPath = devicesPath
        self.dataDirectory = dataDirectory
    }
}

/// A node of a service of several on one PostgreSQL database (`serve
/// --node-id`): its name, where the other nodes reach its API, and how long
/// the dispatch lease it may hold runs.
public struct ClusterNode: Sendable, Equatable {
    /// The node's name (`--node-id`).
    public var name: String
    /// Its API's URL for the other nodes (`--advertise`).
    public var address: String
    /// How long the dispatch lease runs after each renewal (`--dispatch-lease-seconds`).
    public var leaseDuration: Duration = ClusterNode.defaultLeaseDuration

    /// Six seconds: renewed every half second, so a dozen renewals must fail
    /// before a live owner loses it, while dispatch resumes within some
    /// seven seconds of its owner's death.
    public static let defaultLeaseDuration: Duration = .seconds(6)

    /// The node `name`, reached at `address`.
    public init(name: String, address: String) {
        self.name = name
        self.address = address
    }
}
