import Accounts
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Ingest
import Places
import Prometheus
import Routing
import ServiceClock
import Storage
import Zones

/// The HTTP API of the service: its middleware and controllers, put
/// together once. A new endpoint goes into the controller of its resource
/// (`Controllers/`), a concern every request shares into `Middleware/`.
///
/// `/healthz`, `/metrics`, `/openapi.json`, the web pages (`/map`, `/app`, `/driver`), `/osmand`,
/// logging in and registering need no token; everything else is behind ``AuthenticationMiddleware``,
/// and each route names the roles that may call it (SPEC A1).
public struct APIServer: Sendable {
    /// The live fleet index.
    public let fleet: FleetIndex
    /// The fix archive, for tracks.
    public let archive: any FixArchive
    /// The zones in force, for the zone of a point and the known zone ids.
    public let zones: ActiveZones
    /// Puts an activated zone set in force (nil: activation only marks the stored version).
    public let zoneSwitch: ZoneSwitch?
    /// The metrics `/metrics` shows.
    public let metricsRegistry: PrometheusCollectorRegistry
    /// What is wrong with the service now (`/healthz`): a listener down, the
    /// archive failing; empty when all is well.
    public let healthProblems: @Sendable () -> [String]
    /// The server clock staleness, tokens and rate limits are judged by.
    public let clock: any ServiceClock
    /// The one owner of the dispatch state.
    public let dispatcher: Dispatcher
    /// The road router, for ETAs.
    public let roadRouter: RoadRouter
    /// Accounts, passwords and tokens.
    public let accounts: AccountService
    /// The taxi registry: a taxi's device and seats.
    public let taxiRegistry: TaxiRegistryLookup
    /// The taxis and devices of the devices file and the store, which administrators manage.
    public let taxiRegister: TaxiRegister
    /// Hands notices to the push sockets (`/v1/push`).
    public let notificationHub: NotificationHub
    /// The zone set versions planners uploaded.
    public let zoneSets: any ZoneSetStore
    /// Logins a minute allowed from one client address.
    public let loginsPerAddressPerMinute: Int
    /// Passenger registrations and confirmations a minute allowed from one client address.
    public let registrationsPerAddressPerMinute: Int
    /// The longest time window one request for a taxi's archived fixes may ask for.
    public let historyMaxWindow: TimeInterval
    /// Seven days: a week of one taxi's fixes at one every 30 s is about 20,000.
    public static let defaultHistoryMaxWindow: TimeInterval = 7 * 86_400
    /// The folder the map's Leaflet files are read from (Debian's `libjs-leaflet` by default).
    public let leafletDirectory: String
    /// A folder whose files replace the web pages' built-in ones (`serve --web-root`), nil: none.
    public let webRoot: String?
    /// Where fixes sent to `/osmand` on the API's port go (a driver's app on
    /// a phone that is the taxi's terminal); nil: the path is not served.
    public let phoneTerminals: IngestPipeline?
    /// The reverse proxies whose `X-Forwarded-For` names the client.
    public let trustedProxies: TrustedProxies
    /// True when `/metrics` is served by ``metricsRouter()`` on a listener
    /// of its own, and not with the API.
    public let metricsApart: Bool
    /// The moment the fleet's live speeds are of (``FleetSpeedLearning/fleetTime(now:)``); the clock's now when nil.
    public let fleetTime: (@Sendable () -> Date)?
    /// The walking router for `mode=foot`, nil when the service has no foot graph.
    public let footRouter: RoadRouter?
    /// The city's addresses and places, nil when its graph file holds none.
    public let places: PlaceIndex?
    /// The answers to requests with an `Idempotency-Key`, shared by every node.
    public let idempotentAnswers: any IdempotentAnswerStore

    /// Logins allowed at once per client address by default (a dispatch office or a
    /// carrier's NAT puts many users behind one), then refilled at this many a minute; `--login-limit` changes it.
    public static let loginBurstPerAddress = 100
    /// Registrations and confirmations allowed at once per client address by
    /// default, then refilled at this many a minute; `--registration-limit` changes it.
    public static let registrationBurst = 20

    /// The API over these parts of the service.
    public init(
        fleet: FleetIndex, archive: any FixArchive, zones: ActiveZones, zoneSwitch: ZoneSwitch? = nil,
        metricsRegistry: PrometheusCollectorRegistry,
        healthProblems: @escaping @Sendable () -> [String], clock: any ServiceClock, dispatcher: Dispatcher,
        router: RoadRouter, accounts: AccountService, taxiRegistry: TaxiRegistryLookup, taxiRegister: TaxiRegister,
        notificationHub: NotificationHub, zoneSets: any ZoneSetStore, loginsPerAddressPerMinute: Int = APIServer.loginBurstPerAddress,
        registrationsPerAddressPerMinute: Int = APIServer.registrationBurst,
        historyMaxWindow: TimeInterval = APIServer.defaultHistoryMaxWindow,
        leafletDirectory: String = APIServer.debianLeafletDirectory, metricsApart: Bool = false,
        trustedProxies: TrustedProxies = TrustedProxies(), fleetTime: (@Sendable () -> Date)? = nil,
        footRouter: RoadRouter? = nil, places: PlaceIndex? = nil,
        idempotentAnswers: any IdempotentAnswerStore = InMemoryIdempotentAnswerStore(),
        webRoot: String? = nil, phoneTerminals: IngestPipeline? = nil
    ) {
        self.webRoot = webRoot
        self.phoneTerminals = phoneTerminals
        self.places = places
        self.idempotentAnswers = idempotentAnswers
        self.fleetTime = fleetTime
        self.footRouter = footRouter
        self.metricsApart = metricsApart
        self.trustedProxies = trustedProxies
        self.fleet = fleet
        self.archive = archive
        self.zones = zones
        self.zoneSwitch = zoneSwitch
        self.metricsRegistry = metricsRegistry
        self.healthProblems = healthProblems
        self.clock = clock
        self.dispatcher = dispatcher
        self.roadRouter = router
        self.accounts = accounts
        self.taxiRegistry = taxiRegistry
        self.taxiRegister = taxiRegister
        self.notificationHub = notificationHub
        self.zoneSets = zoneSets
        self.loginsPerAddressPerMinute = loginsPerAddressPerMinute
        self.registrationsPerAddressPerMinute = registrationsPerAddressPerMinute
        self.historyMaxWindow = historyMaxWindow
        self.leafletDirectory = leafletDirectory
    }

    /// Where Debian's `libjs-leaflet` puts Leaflet, which the map at `/map` loads.
    public static let debianLeafletDirectory = WebPagesController.debianLeafletDirectory

    /// The routes behind their middleware, ready for an `Application` (or a test client).
    public func router() -> Hummingbird.Router<APIRequestContext> {
        let router = Hummingbird.Router(context: APIRequestContext.self)
        router.add(middleware: HTTPMetricsMiddleware(factory: PrometheusMetricsFactory(registry: metricsRegistry)))
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ProblemMiddleware())
        HealthController(healthProblems: healthProblems, metricsRegistry: metricsRegistry).addRoutes(to: router, withMetrics: !metricsApart)
        OpenAPIController().addRoutes(to: router)
        ClockController(clock: clock).addRoutes(to: router)
        WebPagesController(leafletDirectory: leafletDirectory, webRoot: webRoot).addRoutes(to: router)
        if let phoneTerminals {
            OsmAndListener(pipeline: phoneTerminals).addRoutes(to: router, path: "/osmand")
        } else {
            OsmAndListener.addRefusals(to: router, path: "/osmand")
        }

        let loginsPerAddress = AttemptLimiter(burst: loginsPerAddressPerMinute, perMinute: loginsPerAddressPerMinute, clock: clock)
        let registrations = AttemptLimiter(
            burst: registrationsPerAddressPerMinute, perMinute: registrationsPerAddressPerMinute, clock: clock)
        // One throttle for logins and password changes: a wrong password counts the same in either.
        let passwordThrottle = LoginThrottle(clock: clock)
        let sessions = SessionsController(
            accounts: accounts, dispatcher: dispatcher, throttle: passwordThrottle, addressLimiter: loginsPerAddress,
            proxies: trustedProxies, seats: taxiRegistry.seats, hasDevice: taxiRegistry.hasDevice)
        // Dispatch commands reach the node that decides dispatch, whichever
        // node the client reached; a driver's login and logout are among them.
        let dispatchCommands = DispatchForwardingMiddleware(dispatcher: dispatcher)
        // Every request that changes something may carry an Idempotency-Key
        // (logins excepted: their answers hold a fresh token, never kept);
        // behind the passing-on, so the node that decides keeps the answer.
        let idempotent = IdempotencyMiddleware(store: idempotentAnswers, clock: clock)
        sessions.addPublicRoutes(to: router.group("v1/sessions").add(middleware: dispatchCommands))
        PassengersController(accounts: accounts, limiter: registrations, proxies: trustedProxies)
            .addRoutes(to: router.group("v1/passengers").add(middleware: idempotent))
        PasswordResetsController(accounts: accounts, limiter: registrations, proxies: trustedProxies)
            .addRoutes(to: router.group("v1/password-resets"))

        let v1 = router.group("v1").add(middleware: AuthenticationMiddleware(accounts: accounts))
        sessions.addRoutes(to: v1.group("sessions").add(middleware: dispatchCommands))
        let accountsController = AccountsController(
            accounts: accounts, hasDevice: taxiRegistry.hasDevice,
            anonymiseRides: { [dispatcher] passenger, replacement in try await dispatcher.anonymiseRides(of: passenger, as: replacement) },
            openRide: { [dispatcher] passenger in await dispatcher.openRideOrReservation(of: passenger) })
        accountsController.addRoutes(to: v1.group("accounts").add(middleware: idempotent))
        accountsController.addAuditRoutes(to: v1.group("audit"))
        OwnAccountController(accounts: accounts, throttle: passwordThrottle, proxies: trustedProxies).addRoutes(to: v1.group("account"))
        accountsController.addOutboxRoutes(to: v1.group("outbox"))
        TaxisController(fleet: fleet, archive: archive, clock: clock, maxWindow: historyMaxWindow).addRoutes(to: v1.group("taxis"))
        let registerController = TaxiRegisterController(register: taxiRegister, accounts: accounts, clock: clock)
        registerController.addTaxiRoutes(to: v1.group("taxis").add(middleware: idempotent))
        registerController.addDeviceRoutes(to: v1.group("devices").add(middleware: idempotent))
        let fleetDocuments = RecentFleetDocuments(clock: clock, fleet: fleet, dispatcher: dispatcher)
        FleetController(fleet: fleet, dispatcher: dispatcher, clock: clock, fleetDocuments: fleetDocuments).addRoutes(to: v1.group("fleet"))
        ZonesController(fleet: fleet, zones: zones, dispatcher: dispatcher, router: roadRouter, clock: clock, fleetDocuments: fleetDocuments)
            .addRoutes(to: v1.group("zones"))
        let fixHistory = FixHistoryController(archive: archive, zones: zones, maxWindow: historyMaxWindow)
        fixHistory.addTaxiRoutes(to: v1.group("taxis"))
        fixHistory.addZoneRoutes(to: v1.group("zones"))
        RoadsController(graph: roadRouter.graph, edgeNames: roadRouter.edgeNames).addRoutes(to: v1.group("roads"))
        RoadSpeedsController(router: roadRouter, fleetTime: fleetTime ?? { [clock] in clock.now }).addRoutes(to: v1.group("roads"))
        let meetingPoints = MeetingPoints(car: roadRouter, foot: footRouter)
        let addresses = AddressResolver(places: places)
        PlacesController(places: places).addRoutes(to: v1.group("places"))
        RidesController(
            dispatcher: dispatcher, zones: zones, meetingPoints: meetingPoints, addresses: addresses, fleet: fleet, router: roadRouter,
            largestSeats: taxiRegistry.largestSeats, clock: clock)
            .addRoutes(to: v1.group("rides").add(middleware: dispatchCommands).add(middleware: idempotent))
        ReservationsController(
            dispatcher: dispatcher, zones: zones, meetingPoints: meetingPoints, addresses: addresses,
            largestSeats: taxiRegistry.largestSeats)
            .addRoutes(to: v1.group("reservations").add(middleware: dispatchCommands).add(middleware: idempotent))
        HistoryController(dispatcher: dispatcher).addRoutes(to: v1.group("history"))
        StatisticsController(
            dispatcher: dispatcher, accounts: accounts, archive: archive, zones: zones, timeZone: roadRouter.timeZone, clock: clock)
            .addRoutes(stats: v1.group("stats"), drivers: v1.group("drivers"))
        DispatchStateController(dispatcher: dispatcher).addRoutes(to: v1.group("dispatch"))
        DriverController(dispatcher: dispatcher, fleet: fleet, clock: clock)
            .addRoutes(to: v1.group("driver").add(middleware: dispatchCommands).add(middleware: idempotent))
        let travelTimes = TravelTimeController(routers: TravelModes(car: roadRouter, foot: footRouter), clock: clock)
        travelTimes.addRoutes(to: v1.group("eta"))
        travelTimes.addRouteGeometry(to: v1.group("route"))
        WaitsController(
            dispatcher: dispatcher, zones: zones, router: roadRouter, meetingPoints: meetingPoints,
            busyHours: BusyHours(dispatcher: dispatcher, timeZone: roadRouter.timeZone, clock: clock), clock: clock)
            .addRoutes(waits: v1.group("waits"), reachability: v1.group("reachability"))
        ZoneSetsController(store: zoneSets, zoneSwitch: zoneSwitch, clock: clock).addRoutes(
            to: v1.group("zone-sets").add(
                middleware: IdempotencyMiddleware(store: idempotentAnswers, clock: clock, bodyLimit: ZoneSetsController.maxUpload)))
        let notifications = notificationsController()
        notifications.addRoutes(to: v1.group("notifications"))
        notifications.addPushRoutes(http: v1.group("push"), webSocket: nil)
        return router
    }

    /// `/metrics` alone, for a listener of its own (``metricsApart``).
    public func metricsRouter() -> Hummingbird.Router<APIRequestContext> {
        let router = Hummingbird.Router(context: APIRequestContext.self)
        router.add(middleware: ProblemMiddleware())
        HealthController(healthProblems: healthProblems, metricsRegistry: metricsRegistry).addMetricsRoute(to: router)
        return router
    }

    /// The routes a WebSocket upgrade is tried on (`/v1/push`), behind the
    /// same request ids, problems and authentication as every route.
    public func webSocketRouter() -> Hummingbird.Router<APIRequestContext> {
        let router = Hummingbird.Router(context: APIRequestContext.self)
        router.add(middleware: UpgradeRefusalMiddleware())
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ProblemMiddleware())
        let v1 = router.group("v1").add(middleware: AuthenticationMiddleware(accounts: accounts))
        notificationsController().addPushRoutes(http: nil, webSocket: v1.group("push"))
        return router
    }

    private func notificationsController() -> NotificationsController {
        NotificationsController(dispatcher: dispatcher, hub: notificationHub, fleet: fleet, clock: clock)
    }
}
