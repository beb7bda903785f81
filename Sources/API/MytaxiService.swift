import Accounts
import FixRecords
import Fleet
import Foundation
import Hummingbird
import HummingbirdWebSocket
import HummingbirdCore
import Ingest
import Logging
import Metrics
import NIOCore
import NIOPosix
import PostgresStorage
import Prometheus
import Routing
import SQLiteStorage
import ServiceClock
import ServiceLifecycle
import UnixSignals
import Storage
import Synchronization
import DispatchService
import TaxiDispatch
import Zones

/// The running service of `mytaxi serve`: zones, devices, the archive, the
/// live index rebuilt from it, the dispatcher rebuilt from its log, the
/// ingest listeners and the HTTP API.
///
/// Start order matters for durability: the archive opens and the live state
/// is rebuilt from it, and the dispatcher from the dispatch log, before any
/// listener accepts a fix.
public final class MytaxiService: Sendable {
    public let configuration: ServiceConfiguration
    public let fleet: FleetIndex
    public let pipeline: IngestPipeline
    public let archive: any FixArchive
    /// The archive when it is SQLite's, whose segments are compacted in the background.
    private let compactableArchive: SQLiteFixArchive?
    /// Why the stores cannot take writes now (``ServiceStores/problem``).
    private let storeProblem: @Sendable () -> String?
    /// The PostgreSQL connections when the stores are there, probed for `/healthz`.
    private let databasePool: PostgresPool?
    /// The one owner of the dispatch state.
    public let dispatcher: Dispatcher
    private let dispatchMetrics: DispatchMetrics
    private let committer: GroupCommitter<AcceptedFix>
    private let listeners: IngestListeners
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    /// The zone set in force, which a planner's activation or a SIGHUP replaces.
    private let zones: ActiveZones
    /// Puts a new zone set in force everywhere at once (SPEC Z4).
    private let zoneSwitch: ZoneSwitch
    /// Hands the dispatcher's notices to the push sockets, and the zone switch's to the board.
    private let notificationHub: NotificationHub
    /// The zones file's bytes as last put in force, to tell on SIGHUP whether it changed.
    private let zonesFileBytes: Mutex<Data?>
    private let router: RoadRouter
    /// The walking router of `--foot-graph`, if any.
    private let footRouter: RoadRouter?
    /// Learns travel times from the committed fixes and puts them in force in the router (``SpeedLearningService``).
    private let speedLearning: FleetSpeedLearning
    /// Snaps the taxis that moved to the roads, in the background (``PositionSnapping``).
    private let positionSnapper: PositionSnapper
    /// Accounts, passwords and tokens of the API (SPEC A2).
    public let accounts: AccountService
    /// The zone set versions planners uploaded, and the active one.
    private let zoneSets: any ZoneSetStore
    private let registry: PrometheusCollectorRegistry
    /// Called once per listener when it is bound: its name (`line/tcp`, `http`) and port.
    private let onListening: @Sendable (String, Int) -> Void
    /// The OsmAnd listener's channel while it serves (nil when off or down).
    private let osmandChannel = Mutex<(any Channel)?>(nil)
    /// The one source of time of every part of the service.
    public let clock: any ServiceClock
    /// The open-file limit in force once raised at start (nil when the
    /// system did not tell), against which the devices file is checked.
    private let openFileLimit: OpenFileLimit?

    /// Loads everything and rebuilds the live state; nothing listens yet.
    public init(
        configuration: ServiceConfiguration, logger: Logger, clock: any ServiceClock = SystemClock(),
        onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.onListening = onListening
        let openFileLimit = Self.raiseOpenFileLimit(logger: logger)
        self.openFileLimit = openFileLimit
        registry = PrometheusCollectorRegistry()
        let metrics = IngestMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let stores = try ServiceStores.open(configuration, metrics: metrics, logger: logger)
        storeProblem = stores.problem
        databasePool = stores.pool
        zoneSets = stores.zoneSets
        let loaded = try await Self.loadZones(configuration, zoneSets: zoneSets, logger: logger)
        let zoneIndex = try ZoneIndex(zoneSet: loaded.zoneSet)
        let zones = ActiveZones(zoneIndex)
        self.zones = zones
        zonesFileBytes = Mutex(try? Data(contentsOf: URL(fileURLWithPath: configuration.zonesPath)))
        let devices = try DeviceRegistry.load(path: configuration.devicesPath)
        if let warning = openFileLimit?.shortfallWarning(devices: devices.count) { logger.warning("\(warning)") }
        let secretPolicy = DeviceSecretPolicy(requireSecrets: configuration.requireDeviceSecret)
        if let warning = secretPolicy.warning(for: devices) { logger.warning("\(warning)") }
        let router = try Self.loadRouter(configuration, logger: logger)
        self.router = router
        footRouter = try configuration.footGraphPath.map { path in
            do {
                return try RoutingGraph.router(for: GraphFile.read(from: URL(fileURLWithPath: path)))
            } catch {
                throw ServiceStartError(file: path, reason: "\(error)")
            }
        }
        archive = stores.archive
        compactableArchive = stores.compactableArchive
        accounts = AccountService(store: stores.accounts, clock: clock, settings: configuration.accountSettings)
        let fleet = FleetIndex(staleAfter: configuration.staleAfterSeconds)
        self.fleet = fleet
        let validator = FixValidator(rules: configuration.validation)
        let restored = try await archive.latestFixPerTaxi()
        // Each restored taxi in its zone under the set in force, which may not be the one its last fix was
        // stored with; all of them under one lock of the index.
        fleet.update(restored.lazy.map { fix in
            var position = fix.position
            position.zoneId = zoneIndex.zone(at: position.coordinate)?.id
            return (position, fix.receivedAt)
        })
        validator.recordCommitted(restored)
        let speedLearning = await FleetSpeedLearning(
            router: router, store: stores.learnedSpeeds, metricsFactory: PrometheusMetricsFactory(registry: registry), logger: logger)
        self.speedLearning = speedLearning
        committer = GroupCommitter(archive: archive) { fixes, report in
            fleet.update(fixes.lazy.map { ($0.position, $0.receivedAt) })
            speedLearning.receive(fixes)
            metrics.committed(fixCount: report.itemCount, duration: report.duration)
        }
        let dispatchMetrics = DispatchMetrics(factory: PrometheusMetricsFactory(registry: registry))
        self.dispatchMetrics = dispatchMetrics
        positionSnapper = PositionSnapper(router: router, fleet: fleet, snapped: SnappedPositions())
        let etas = RouterPickupETAs(snapper: positionSnapper)
        let dispatcher: Dispatcher
        do {
            dispatcher = try await Dispatcher(
                log: stores.dispatchLog, rules: configuration.dispatchRules,
                clock: clock, etas: etas, positions: fleet, metrics: dispatchMetrics, zones: zones)
        } catch {
            committer.shutdown()
            throw error
        }
        do {
            // Queues, requests and bookings restored from the log follow a zone set changed since.
            try await dispatcher.replaceZones(with: zoneIndex)
        } catch {
            dispatcher.close()
            committer.shutdown()
            throw error
        }
        self.dispatcher = dispatcher
        pipeline = IngestPipeline(
            devices: devices, zones: zones, validator: validator, sink: committer, metrics: metrics, clock: clock,
            secretPolicy: secretPolicy, logger: logger)
        group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let notificationHub = NotificationHub(dispatcher: dispatcher, clock: clock, logger: logger)
        self.notificationHub = notificationHub
        notificationHub.closeSockets(onSessionsEndedBy: accounts.sessionEnds)
        zoneSwitch = ZoneSwitch(
            active: zones, fleet: fleet, dispatcher: dispatcher, board: notificationHub, clock: clock, logger: logger)
        listeners = IngestListeners(
            pipeline: pipeline, group: group, limits: configuration.ingestLimits, allowList: configuration.ingestAllowList,
            logger: logger)
        if !configuration.ingestAllowList.ranges.isEmpty {
            logger.info("the terminals' TCP and UDP listeners serve only \(configuration.ingestAllowList) (--ingest-allow)")
        }
        let dispatchState = await dispatcher.snapshot
        logger.info(
            "loaded \(loaded.zoneSet.zones.count) zones, \(devices.count) devices; restored \(restored.count) taxis from the archive, \(dispatchState.requests.count) open requests and \(dispatchState.taxiQueues.values.map(\.entries.count).reduce(0, +)) queued taxis from the dispatch log")
    }

    /// Runs the service until SIGTERM or SIGINT, then stops it gracefully.
    ///
    /// Every part is a service of one `ServiceGroup`, started in this order
    /// and shut down in the reverse: the HTTP API and the OsmAnd listener
    /// stop first, then the TCP and UDP listeners stop accepting, then the
    /// archive writes what is queued (so every ACK still owed leaves), and
    /// only when all have returned do the event loops stop. SIGHUP reloads
    /// the devices file, and the zones file when it changed.
    public func run() async throws {
        let ingestHost = configuration.effectiveIngestBindHost
        let ingest = IngestListenersService(
            listeners: listeners, tcpPorts: configuration.tcpPorts.filter { $0.key != .osmand },
            udpPorts: configuration.udpPorts, host: ingestHost,
            report: { [self] listener, port in report(listener: listener, port: port) })
        do {
            try await ingest.bind()
        } catch {
            await listeners.close()
            committer.shutdown()
            dispatcher.close()
            try? await group.shutdownGracefully()
            throw error
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: ArchiveService(committer: committer)),
            .init(service: DispatcherService(dispatcher: dispatcher, fleet: fleet, clock: clock, metrics: dispatchMetrics)),
            .init(service: ingest),
        ]
        if let port = configuration.tcpPorts[.osmand] {
            services.append(.init(service: Application(
                router: OsmAndListener(pipeline: pipeline).router(),
                server: httpServer(),
                configuration: httpConfiguration(host: ingestHost, port: port, serverName: "mytaxi-osmand"),
                onServerRunning: { [self] channel in
                    osmandChannel.withLock { $0 = channel }
                    report(listener: "osmand/http", port: channel.localAddress?.port ?? port)
                },
                eventLoopGroupProvider: .shared(group),
                logger: logger)))
        }
        let api = APIServer(
            fleet: fleet, archive: archive, zones: zones, zoneSwitch: zoneSwitch, metricsRegistry: registry,
            healthProblems: { [self] in healthProblems() }, clock: clock, dispatcher: dispatcher, router: router,
            accounts: accounts, hasDevice: { [pipeline] in pipeline.hasDevice(for: $0) }, notificationHub: notificationHub,
            zoneSets: zoneSets, loginsPerAddressPerMinute: configuration.loginsPerAddressPerMinute,
            registrationsPerAddressPerMinute: configuration.registrationsPerAddressPerMinute,
            historyMaxWindow: configuration.historyMaxWindow, metricsApart: configuration.metricsAddress != nil,
            trustedProxies: configuration.trustedProxies,
            fleetTime: { [speedLearning, clock] in speedLearning.fleetTime(now: clock.now) }, footRouter: footRouter)
        if let metrics = configuration.metricsAddress {
            services.append(.init(service: Application(
                router: api.metricsRouter(),
                configuration: httpConfiguration(host: metrics.host, port: metrics.port, serverName: "mytaxi-metrics"),
                onServerRunning: { [self] channel in report(listener: "metrics", port: channel.localAddress?.port ?? metrics.port) },
                eventLoopGroupProvider: .shared(group),
                logger: logger)))
        }
        services.append(.init(service: Application(
            router: api.router(),
            server: apiServer(webSocketRouter: api.webSocketRouter()),
            configuration: httpConfiguration(host: configuration.bindHost, port: configuration.httpPort, serverName: "mytaxi"),
            onServerRunning: { [self] channel in
                report(listener: "http", port: channel.localAddress?.port ?? configuration.httpPort)
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger)))
        // After the API server, so that it stops first (a group stops in
        // reverse order): it closes the push sockets, which the server's
        // graceful shutdown would otherwise wait for without end.
        services.append(.init(service: notificationHub))
        services.append(.init(service: HangupReloadService { [self] in
            reloadDevices()
            await reloadZonesFile()
        }))
        services.append(.init(service: PeriodicService(StalenessSweep(fleet: fleet, clock: clock), clock: clock)))
        if let databasePool {
            services.append(.init(service: PeriodicService(DatabaseProbe(pool: databasePool, logger: logger), clock: clock)))
        }
        services.append(.init(service: PeriodicService(PositionSnapping(snapper: positionSnapper), clock: clock)))
        services.append(.init(service: SpeedLearningService(
            learning: speedLearning, clock: clock, publishEvery: configuration.learnedSpeedsEverySeconds)))
        services.append(.init(service: PeriodicService(TokenPurge(accounts: accounts, logger: logger), clock: clock)))
        services.append(.init(service: PeriodicService(
            ArchiveRetention(
                archive: archive, retention: configuration.fixRetention, clock: clock, logger: logger,
                metrics: PrometheusMetricsFactory(registry: registry)),
            clock: clock)))
        if let compactableArchive, let compactAfter = configuration.compactAfter {
            services.append(.init(service: ArchiveCompactionService(
                archive: compactableArchive, compactAfter: compactAfter, clock: clock, logger: logger,
                metrics: PrometheusMetricsFactory(registry: registry))))
        }
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await serviceGroup.run()
        } catch {
            committer.shutdown()
            dispatcher.close()
            try? await group.shutdownGracefully()
            throw error
        }
        logger.info("stopped: every queued fix was written")
        try await group.shutdownGracefully()
    }

    /// Raises the soft open-file limit to the hard one, before anything is
    /// opened, and logs the room it leaves for terminal connections; a
    /// limit that cannot be raised is logged and kept.
    private static func raiseOpenFileLimit(logger: Logger) -> OpenFileLimit? {
        do {
            let (before, after) = try OpenFileLimit.raiseSoftToHard()
            let raised = before.soft < after.soft ? " (raised from \(before.soft) to the hard limit)" : " (the hard limit)"
            logger.info(
                "open files: \(after.soft) allowed\(raised); room for about \(after.connectionCapacity) terminal connections",
                metadata: ["open_files": "\(after.soft)", "connection_capacity": "\(after.connectionCapacity)"])
            return after
        } catch {
            logger.warning("open files: the limit could not be raised (\(error)); it stays as it is")
            return try? OpenFileLimit.current()
        }
    }

    /// The zones the service starts on: the version planners activated
    /// through the API when there is one, else the file of `--zones`.
    /// - Throws: ``ServiceStartError`` when the active version no longer
    ///   loads, or the zone file's own error.
    private static func loadZones(_ configuration: ServiceConfiguration, zoneSets: any ZoneSetStore, logger: Logger) async throws -> LoadedZones {
        guard let active = try await zoneSets.activeVersion(), let geoJSON = try await zoneSets.geoJSON(of: active.version) else {
            return try ZoneFileLoader.load(path: configuration.zonesPath, options: configuration.zoneFileOptions)
        }
        do {
            let loaded = try ZoneFileLoader.load(data: geoJSON, options: ZoneFileOptions())
            logger.info("zones: version \(active.version) activated by \(active.activation?.by ?? "?") through the API, in place of \(configuration.zonesPath)")
            return loaded
        } catch {
            throw ServiceStartError(
                file: configuration.dataDirectory + "/zones.sqlite",
                reason: "the active zone set version \(active.version) does not load (\(error)); activate another with POST /v1/zone-sets/{version}/activation")
        }
    }

    /// The road router of `--graph`, with the graph's own speed profile
    /// unless `--speed-profile` gives another; a graph without a time zone
    /// is warned of (its hours are UTC's).
    /// - Throws: ``ServiceStartError`` naming the file that cannot be used.
    private static func loadRouter(_ configuration: ServiceConfiguration, logger: Logger) throws -> RoadRouter {
        let graphPath = configuration.graphPath
        let profile: SpeedProfile?
        do {
            profile = try configuration.speedProfilePath.map { try SpeedProfile(parsing: String(contentsOfFile: $0, encoding: .utf8)) }
        } catch {
            throw ServiceStartError(file: configuration.speedProfilePath ?? "", reason: "\(error)")
        }
        do {
            let contents = try GraphFile.read(from: URL(fileURLWithPath: graphPath))
            if RoutingGraph.timeZone(in: contents) == nil {
                logger.warning("\(RoutingGraph.missingTimeZoneWarning(graphPath: graphPath))")
            }
            return try RoutingGraph.router(for: contents, speedProfile: profile)
        } catch {
            throw ServiceStartError(file: graphPath, reason: "\(error)")
        }
    }

    private func report(listener: String, port: Int) {
        onListening(listener, port)
        let host = listener == "http" ? configuration.bindHost : configuration.effectiveIngestBindHost
        logger.info("listening", metadata: ["listener": "\(listener)", "address": "\(host):\(port)"])
    }

    /// What is wrong now, for `/healthz`: a listener turned on but not
    /// listening (one turned off on purpose does not count), commits or
    /// background moves failing; in words, the errors themselves being logged.
    private func healthProblems() -> [String] {
        var problems: [String] = []
        if !listeners.allListening { problems.append("the ingest listeners are not all up") }
        if configuration.tcpPorts[.osmand] != nil, osmandChannel.withLock({ $0?.isActive }) != true {
            problems.append("the OsmAnd listener is not up")
        }
        let commits = pipeline.commitFailure.map { _ in "the archive cannot store fixes (the service's log says why)" }
        return problems + [commits, storeProblem()].compactMap { $0 }
    }

    /// An HTTP server's address and its connection limit: beyond
    /// ``ServiceConfiguration/maxHTTPConnections`` new connections wait in
    /// the listen queue.
    private func httpConfiguration(host: String, port: Int, serverName: String) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: .hostname(host, port: port), serverName: serverName,
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxHTTPConnections, logger: logger))
    }

    /// HTTP/1.1 whose clients must send each request whole within the
    /// timeout (a slow header cannot hold the connection) and whose idle
    /// connections close after it.
    private func httpServer() -> HTTPServerBuilder {
        let timeout = TimeAmount.milliseconds(Int64(configuration.httpTimeoutSeconds * 1000))
        return .http1(
            configuration: .init(additionalChannelHandlers: [HTTPRequestDeadlineHandler(timeout: timeout)], idleTimeout: timeout))
    }

    /// HTTP/1.1 as ``httpServer()``, whose `GET /v1/push` may be upgraded
    /// to a WebSocket; a pushed socket is pinged every 30 s, so a vanished
    /// phone's socket is closed, and a client that does not answer the close
    /// handshake is cut off after ``pushCloseTimeout``. The first request's
    /// head, which the upgrade negotiation reads before the HTTP handlers
    /// exist, is held to its deadline and size by ``APIChildChannel``.
    /// How long a push socket's close handshake may take (a logout, the
    /// service stopping) before the connection is cut.
    static let pushCloseTimeout: Duration = .seconds(5)

    private func apiServer(webSocketRouter: Hummingbird.Router<APIRequestContext>) -> HTTPServerBuilder {
        let timeout = TimeAmount.milliseconds(Int64(configuration.httpTimeoutSeconds * 1000))
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            APIChildChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(additionalChannelHandlers: [HTTPRequestDeadlineHandler(timeout: timeout)], idleTimeout: timeout),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: Self.pushCloseTimeout))),
                timeout: timeout)
        }
    }

    /// Re-reads the devices file (SIGHUP); a bad file keeps the current registry.
    public func reloadDevices() {
        do {
            let devices = try DeviceRegistry.load(path: configuration.devicesPath)
            pipeline.reloadDevices(devices)
            logger.info("reloaded \(devices.count) devices from \(configuration.devicesPath)")
            if let warning = openFileLimit?.shortfallWarning(devices: devices.count) { logger.warning("\(warning)") }
            if let warning = pipeline.secretPolicy.warning(for: devices) { logger.warning("\(warning)") }
        } catch {
            logger.error("kept the current devices: \(configuration.devicesPath): \(error)")
        }
    }

    /// On SIGHUP: when the zones file of `--zones` changed since it was
    /// last put in force, loads and indexes it beside the running set and
    /// puts it in force (SPEC Z4). A file with problems is logged and the
    /// running set stays. While a version activated through the API is in
    /// force, the file is not used (a restart would start on that version
    /// too): the log says so.
    public func reloadZonesFile() async {
        let path = configuration.zonesPath
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return logger.error("kept the zones in force: cannot read \(path): \(error.localizedDescription)")
        }
        guard bytes != zonesFileBytes.withLock({ $0 }) else { return }
        do {
            if let active = try await zoneSets.activeVersion() {
                return logger.warning(
                    "zones: \(path) changed, but zone set version \(active.version) activated through the API is in force; publish the file (mytaxi zones publish) to use it")
            }
            let loaded = try ZoneFileLoader.load(data: bytes, options: configuration.zoneFileOptions)
            let index = try ZoneIndex(zoneSet: loaded.zoneSet)
            zonesFileBytes.withLock { $0 = bytes }
            await zoneSwitch.switchTo(index, version: nil, from: "\(path), reloaded on SIGHUP")
        } catch {
            logger.error("kept the zones in force: \(path): \(error)")
        }
    }
}
