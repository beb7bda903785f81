import Accounts
import API
import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Hummingbird
import HummingbirdCore
import Ingest
import Logging
import Mail
import NIOCore
import NIOPosix
import Routing
import ServiceClock
import ServiceLifecycle
import Storage
import Synchronization
import UnixSignals
import Zones

/// Builds the whole service of `mytaxi serve` and returns it ready to run:
/// raises the open-file limit, reads the zones, devices and graphs
/// (``ServiceInputs``), rebuilds the live state from `stores` and wires
/// every part (``MytaxiServer``). Nothing listens until the group runs.
/// - Parameter onListening: told each listener's name (`line/tcp`, `http`)
///   and port once it is bound.
/// - Throws: ``ServiceStartError`` and the zone and devices files' errors,
///   naming the file; the stores' errors.
public func buildService(
    configuration: ServiceConfiguration, stores: ServiceStores, clock: any ServiceClock = SystemClock(), logger: Logger,
    onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }
) async throws -> ServiceGroup {
    let openFileLimit = OpenFileLimit.raisedForService(logger: logger)
    let inputs = try await ServiceInputs.load(configuration, zoneSets: stores.zoneSets, logger: logger)
    let server = try await MytaxiServer(
        configuration: configuration, inputs: inputs, stores: stores, clock: clock, logger: logger, openFileLimit: openFileLimit)
    return server.serviceGroup(onListening: onListening)
}

/// Every part of the running service, wired once: the live fleet index
/// rebuilt from the archive, the dispatcher rebuilt from its log, the
/// ingest pipeline, accounts, zones and their switch, the HTTP API. The
/// test harness builds the same parts on in-memory stores and drives the
/// API without listeners.
///
/// Start order matters for durability: the live state is rebuilt from
/// the archive, and the dispatcher from the dispatch log, before any
/// listener accepts a fix.
public final class MytaxiServer: Sendable {
    /// The settings the service runs with.
    public let configuration: ServiceConfiguration
    /// The one source of time of every part of the city's service.
    public let clock: any ServiceClock
    /// The time of what nodes and their balancer share, in real seconds
    /// whatever the service clock's rate: the dispatch lease (timed by
    /// PostgreSQL's clock), the balancer's drain, and the reads of the other
    /// nodes' taxis and zone sets (at most 2 s behind).
    static let realTime: any ServiceClock = SystemClock()
    /// Where fixes, the dispatch log, accounts, zone sets and learned speeds are kept.
    public let stores: ServiceStores
    /// The live index of the fleet: each taxi's latest position and zone.
    public let fleet: FleetIndex
    /// Where every decoded fix goes: device check, validation, zone, archive.
    public let pipeline: IngestPipeline
    /// The one owner of the dispatch state.
    public let dispatcher: Dispatcher
    /// Accounts, passwords and tokens of the API.
    public let accounts: AccountService
    /// The outbox delivered to the mail relay (`--smtp`); nil without one.
    public let outboxDelivery: OutboxDelivery?
    /// The zone set in force, which a planner's activation or a SIGHUP replaces.
    public let zones: ActiveZones
    /// Puts a new zone set in force everywhere at once.
    public let zoneSwitch: ZoneSwitch
    /// Hands the dispatcher's notices to the push sockets, and the zone switch's to the board.
    public let notificationHub: NotificationHub
    /// The HTTP API's routes.
    public let api: APIServer
    private let committer: GroupCommitter<AcceptedFix>
    /// Learns travel times from the committed fixes and puts them in force in the router.
    private let speedLearning: FleetSpeedLearning
    /// Snaps the taxis that moved to the roads, in the background.
    private let positionSnapper: PositionSnapper
    private let logger: Logger
    /// The zones file's bytes as last put in force, to tell on SIGHUP whether it changed.
    private let zonesFileBytes: Mutex<Data?>
    /// The open-file limit in force (nil when the system did not tell), against which the devices file is checked.
    private let openFileLimit: OpenFileLimit?
    /// What `/healthz` reports, which watches the listeners once the group runs.
    private let health: ServiceHealth

    /// Wires the service on `inputs` and `stores`: restores the taxis' last
    /// positions (each in its zone under the set in force) and the dispatch
    /// state, whose queues and bookings follow a zone set changed since.
    public init(
        configuration: ServiceConfiguration, inputs: ServiceInputs, stores: ServiceStores, clock: any ServiceClock,
        logger: Logger, openFileLimit: OpenFileLimit? = nil
    ) async throws {
        let metrics = stores.metrics
        let zoneIndex = try ZoneIndex(zoneSet: inputs.zoneSet)
        let zones = ActiveZones(zoneIndex)
        if let warning = openFileLimit?.shortfallWarning(devices: inputs.devices.count) { logger.warning("\(warning)") }
        let secretPolicy = DeviceSecretPolicy(requireSecrets: configuration.requireDeviceSecret)
        if let warning = secretPolicy.warning(for: inputs.devices) { logger.warning("\(warning)") }
        let accounts = AccountService(store: stores.accounts, clock: clock, settings: configuration.accountSettings)
        let fleet = FleetIndex(staleAfter: configuration.staleAfterSeconds)
        let validator = FixValidator(rules: configuration.validation)
        let restored = try await stores.archive.latestFixPerTaxi()
        // Each restored taxi in its zone under the set in force, which may not be the one its last fix was
        // stored with; all of them under one lock of the index.
        fleet.update(restored.lazy.map { fix in
            var position = fix.position
            position.zoneId = zoneIndex.zone(at: position.coordinate)?.id
            return (position, fix.receivedAt)
        })
        validator.recordCommitted(restored)
        let positionSnapper = PositionSnapper(router: inputs.router, fleet: fleet, snapped: SnappedPositions())
        let speedLearning = await FleetSpeedLearning(
            router: inputs.router, store: stores.learnedSpeeds, metricsFactory: metrics.factory, logger: logger)
        if configuration.node != nil, stores.dispatchOwnership == nil {
            throw ServiceStartError(file: "--node-id", reason: "a node of several needs the shared PostgreSQL stores (--database URL)")
        }
        // A node of several follows the log until it takes the dispatch lease.
        let role: DispatchRole = configuration.node == nil ? .deciding(nil) : .following(owner: nil)
        let dispatcher = try await Dispatcher(
            log: stores.dispatchLog, rules: configuration.dispatchRules, clock: clock,
            etas: RouterPickupETAs(snapper: positionSnapper, fleetTime: { speedLearning.fleetTime(now: $0) }),
            positions: fleet, metrics: metrics.dispatch, zones: zones, role: role, sharing: SharedRideMatcher(router: inputs.router))
        if role.decides {
            do {
                try await dispatcher.replaceZones(with: zoneIndex)
            } catch {
                dispatcher.close()
                throw error
            }
        }
        let committer = GroupCommitter(archive: stores.archive) { fixes, report in
            fleet.update(fixes.lazy.map { ($0.position, $0.receivedAt) })
            speedLearning.receive(fixes)
            metrics.ingest.committed(fixCount: report.itemCount, duration: report.duration)
        }
        let pipeline = IngestPipeline(
            devices: inputs.devices, zones: zones, validator: validator, sink: committer, metrics: metrics.ingest, clock: clock,
            secretPolicy: secretPolicy, logger: logger)
        let register = TaxiRegister(store: stores.register, file: inputs.devices, clock: clock) { pipeline.reloadDevices($0) }
        try await register.refresh()
        let notificationHub = NotificationHub(dispatcher: dispatcher, fleet: fleet, clock: clock, logger: logger)
        notificationHub.closeSockets(onSessionsEndedBy: accounts.sessionEnds)
        let zoneSwitch = ZoneSwitch(
            active: zones, fleet: fleet, dispatcher: dispatcher, board: notificationHub, clock: clock, logger: logger,
            versionInForce: inputs.zoneSetVersion)
        let health = ServiceHealth(configuration: configuration, pipeline: pipeline, storeProblem: stores.problem)
        api = APIServer(
            fleet: fleet, archive: stores.archive, zones: zones, zoneSwitch: zoneSwitch, metricsRegistry: metrics.registry,
            healthProblems: { health.problems() }, clock: clock, dispatcher: dispatcher, router: inputs.router,
            accounts: accounts, taxiRegistry: TaxiRegistryLookup(pipeline: pipeline), taxiRegister: register,
            notificationHub: notificationHub,
            zoneSets: stores.zoneSets, loginsPerAddressPerMinute: configuration.loginsPerAddressPerMinute,
            registrationsPerAddressPerMinute: configuration.registrationsPerAddressPerMinute,
            historyMaxWindow: configuration.historyMaxWindow, leafletDirectory: configuration.leafletDirectory,
            metricsApart: configuration.metricsAddress != nil, trustedProxies: configuration.trustedProxies,
            fleetTime: { speedLearning.fleetTime(now: clock.now) }, footRouter: inputs.footRouter, places: inputs.places,
            idempotentAnswers: stores.idempotentAnswers, webRoot: configuration.webRoot,
            phoneTerminals: configuration.tcpPorts[.osmand] == nil ? nil : pipeline)
        self.configuration = configuration
        self.clock = clock
        self.stores = stores
        self.logger = logger
        self.openFileLimit = openFileLimit
        self.fleet = fleet
        self.pipeline = pipeline
        self.dispatcher = dispatcher
        self.accounts = accounts
        if let relay = configuration.smtpRelay {
            do {
                outboxDelivery = OutboxDelivery(
                    store: stores.accounts, client: try SMTPClient(relay: relay), clock: clock, logger: logger, metrics: metrics.factory)
            } catch {
                throw ServiceStartError(file: "--smtp", reason: "\(error)")
            }
            logger.info("the outbox goes to the mail relay \(relay) as \(relay.from)")
        } else {
            outboxDelivery = nil
        }
        self.zones = zones
        self.zoneSwitch = zoneSwitch
        self.notificationHub = notificationHub
        self.committer = committer
        self.speedLearning = speedLearning
        self.positionSnapper = positionSnapper
        self.health = health
        zonesFileBytes = Mutex(inputs.zonesFileBytes)
        if !configuration.ingestAllowList.ranges.isEmpty {
            logger.info("the terminals' TCP and UDP listeners serve only \(configuration.ingestAllowList) (--ingest-allow)")
        }
        let dispatchState = await dispatcher.snapshot
        logger.info(
            "loaded \(inputs.zoneSet.zones.count) zones, \(inputs.devices.count) devices; restored \(restored.count) taxis from the archive, \(dispatchState.requests.count) open requests and \(dispatchState.taxiQueues.values.map(\.entries.count).reduce(0, +)) queued taxis from the dispatch log")
    }

    /// The service group that runs every part until SIGTERM or SIGINT, then
    /// stops it gracefully. Each part is a service that closes what it owns
    /// when it stops; the group starts them in this order and stops them in
    /// the reverse: the HTTP API and the OsmAnd listener stop first, then
    /// the TCP and UDP listeners stop accepting, then the archive writes
    /// what is queued (so every ACK still owed leaves), and the event loops
    /// stop last. SIGHUP reloads the devices file, and the zones file when
    /// it changed.
    public func serviceGroup(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) -> ServiceGroup {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let listeners = IngestListeners(
            pipeline: pipeline, group: group, limits: configuration.ingestLimits, allowList: configuration.ingestAllowList, logger: logger)
        health.watch(listeners)
        let report: @Sendable (String, Int) -> Void = { [configuration, logger] listener, port in
            onListening(listener, port)
            let host = listener == "http" ? configuration.bindHost : configuration.effectiveIngestBindHost
            logger.info("listening", metadata: ["listener": "\(listener)", "address": "\(host):\(port)"])
        }
        let ingestBound = StartSignal()
        let ingestHost = configuration.effectiveIngestBindHost
        var services: [any Service] = [
            EventLoopGroupService(group: group),
            ArchiveService(committer: committer),
            DispatcherService(dispatcher: dispatcher, fleet: fleet, clock: clock, metrics: stores.metrics.dispatch),
        ]
        if let node = configuration.node, let ownership = stores.dispatchOwnership {
            // After the dispatcher, so that it stops first: it writes what is
            // queued and hands the lease over while the dispatcher still runs.
            services.append(DispatchOwnershipService(
                ownership: ownership, dispatcher: dispatcher, fleet: fleet, zones: zones, node: node, clock: Self.realTime, logger: logger))
        }
        services.append(IngestListenersService(
            listeners: listeners, tcpPorts: configuration.tcpPorts.filter { $0.key != .osmand }, udpPorts: configuration.udpPorts,
            host: ingestHost, bound: ingestBound, report: report))
        if let port = configuration.tcpPorts[.osmand] {
            services.append(StartingAfter(signal: ingestBound, base: Application(
                router: OsmAndListener(pipeline: pipeline).router(),
                server: .http1(requestTimeout: httpTimeout),
                configuration: httpConfiguration(host: ingestHost, port: port, serverName: "mytaxi-osmand"),
                onServerRunning: { [self] channel in
                    health.watchOsmAnd(channel)
                    report("osmand/http", channel.localAddress?.port ?? port)
                },
                eventLoopGroupProvider: .shared(group), logger: logger)))
        }
        if let metrics = configuration.metricsAddress {
            services.append(StartingAfter(signal: ingestBound, base: Application(
                router: api.metricsRouter(),
                server: .http1(requestTimeout: httpTimeout),
                configuration: httpConfiguration(host: metrics.host, port: metrics.port, serverName: "mytaxi-metrics"),
                onServerRunning: { channel in report("metrics", channel.localAddress?.port ?? metrics.port) },
                eventLoopGroupProvider: .shared(group), logger: logger)))
        }
        services.append(StartingAfter(signal: ingestBound, base: Application(
            router: api.router(),
            server: .api(webSocketRouter: api.webSocketRouter(), requestTimeout: httpTimeout),
            configuration: httpConfiguration(host: configuration.bindHost, port: configuration.httpPort, serverName: "mytaxi"),
            onServerRunning: { [configuration] channel in report("http", channel.localAddress?.port ?? configuration.httpPort) },
            eventLoopGroupProvider: .shared(group), logger: logger)))
        // After the API server, so that it stops first (a group stops in
        // reverse order): it closes the push sockets, which the server's
        // graceful shutdown would otherwise wait for without end.
        services.append(notificationHub)
        services.append(HangupReloadService { [self] in reloadDevices() })
        services.append(HangupReloadService { [self] in await reloadZonesFile() })
        services += upkeepServices()
        if configuration.drainSeconds > 0 {
            services.append(DrainService(duration: .milliseconds(Int64(configuration.drainSeconds * 1000)), health: health, clock: Self.realTime, logger: logger))
        }
        return ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { .init(service: $0, failureTerminationBehavior: .gracefullyShutdownGroup) },
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    }

    /// The background upkeep: stale taxis swept, moved ones snapped, speeds
    /// learned, expired tokens forgotten, the archive kept within its
    /// retention and compacted, the database probed, and on a node of
    /// several the taxis that report to the other nodes read and the zone
    /// sets they put in force followed.
    private func upkeepServices() -> [any Service] {
        let factory = stores.metrics.factory
        var services: [any Service] = [
            PeriodicService(StalenessSweep(fleet: fleet, clock: clock), clock: clock),
            PeriodicService(PositionSnapping(snapper: positionSnapper), clock: clock),
            SpeedLearningService(learning: speedLearning, clock: clock, publishEvery: configuration.learnedSpeedsEverySeconds),
            PeriodicService(TokenPurge(accounts: accounts, logger: logger), clock: clock),
            PeriodicService(TaxiRegisterRefresh(register: api.taxiRegister, logger: logger), clock: clock),
            PeriodicService(
                ArchiveRetention(archive: stores.archive, retention: configuration.fixRetention, clock: clock, logger: logger, metrics: factory),
                clock: clock),
        ]
        if let outboxDelivery {
            services.append(PeriodicService(OutboxDeliveryRounds(delivery: outboxDelivery, logger: logger), clock: clock))
        }
        if let pool = stores.pool {
            services.append(PeriodicService(DatabaseProbe(pool: pool, pipeline: pipeline, logger: logger), clock: clock))
        }
        if configuration.node != nil {
            services.append(PeriodicService(FleetOfEveryNode(archive: stores.archive, fleet: fleet), clock: Self.realTime))
            services.append(PeriodicService(
                ZoneSetsOfEveryNode(store: stores.zoneSets, zoneSwitch: zoneSwitch, logger: logger), clock: Self.realTime))
        }
        if let archive = stores.compactableArchive, let compactAfter = configuration.compactAfter {
            services.append(ArchiveCompactionService(archive: archive, compactAfter: compactAfter, clock: clock, logger: logger, metrics: factory))
        }
        return services
    }

    private var httpTimeout: TimeAmount { .milliseconds(Int64(configuration.httpTimeoutSeconds * 1000)) }

    /// An HTTP server's address and its connection limit: beyond
    /// ``ServiceConfiguration/maxHTTPConnections`` new connections wait in
    /// the listen queue.
    private func httpConfiguration(host: String, port: Int, serverName: String) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: .hostname(host, port: port), serverName: serverName,
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxHTTPConnections, logger: logger))
    }

    /// Re-reads the devices file (SIGHUP), under what administrators keep
    /// in the store; a bad file keeps the current registry.
    public func reloadDevices() {
        do {
            let file = try DeviceRegistry.load(path: configuration.devicesPath)
            api.taxiRegister.replaceFile(file)
            let devices = api.taxiRegister.registry
            logger.info("reloaded \(file.count) devices from \(configuration.devicesPath); \(devices.count) with the store's")
            if let warning = openFileLimit?.shortfallWarning(devices: devices.count) { logger.warning("\(warning)") }
            if let warning = pipeline.secretPolicy.warning(for: devices) { logger.warning("\(warning)") }
        } catch {
            logger.error("kept the current devices: \(configuration.devicesPath): \(error)")
        }
    }

    /// On SIGHUP: when the zones file of `--zones` changed since it was
    /// last put in force, loads and indexes it beside the running set and
    /// puts it in force. A file with problems is logged and the running set
    /// stays. While a version activated through the API is in force, the
    /// file is not used (a restart would start on that version too): the
    /// log says so.
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
            if let active = try await stores.zoneSets.activeVersion() {
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

extension OpenFileLimit {
    /// Raises the soft open-file limit to the hard one, and logs the room
    /// it leaves for terminal connections; a limit that cannot be raised is
    /// logged and kept.
    static func raisedForService(logger: Logger) -> OpenFileLimit? {
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
}
