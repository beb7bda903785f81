import Fleet
import Foundation
import Hummingbird
import Ingest
import Prometheus
import ServiceClock
import Storage
import Zones

/// The HTTP API of the service: its middleware and controllers, put
/// together once. A new endpoint goes into the controller of its resource
/// (`Controllers/`), a concern every request shares into `Middleware/`.
public struct APIServer: Sendable {
    public let fleet: FleetIndex
    public let archive: any FixArchive
    public let zoneSet: ZoneSet
    public let metricsRegistry: PrometheusCollectorRegistry
    /// What is wrong with the service now (`/healthz`): a listener down, the
    /// archive failing; empty when all is well.
    public let healthProblems: @Sendable () -> [String]
    /// The server clock staleness is judged by.
    public let clock: any ServiceClock

    public init(
        fleet: FleetIndex, archive: any FixArchive, zoneSet: ZoneSet, metricsRegistry: PrometheusCollectorRegistry,
        healthProblems: @escaping @Sendable () -> [String], clock: any ServiceClock = SystemClock()
    ) {
        self.fleet = fleet
        self.archive = archive
        self.zoneSet = zoneSet
        self.metricsRegistry = metricsRegistry
        self.healthProblems = healthProblems
        self.clock = clock
    }

    /// The routes behind their middleware, ready for an `Application` (or a test client).
    public func router() -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: ProblemMiddleware())
        HealthController(healthProblems: healthProblems, metricsRegistry: metricsRegistry).addRoutes(to: router)
        TaxisController(fleet: fleet, archive: archive, clock: clock).addRoutes(to: router.group("v1/taxis"))
        ZonesController(fleet: fleet, zoneSet: zoneSet, clock: clock).addRoutes(to: router.group("v1/zones"))
        return router
    }
}
