import Fleet
import Foundation
import Hummingbird
import Ingest
import Prometheus
import Storage
import Zones

/// The read side of the service over HTTP (the service contract):
/// live taxis, taxis per zone, a taxi's archived fixes, health and metrics.
public struct APIServer: Sendable {
    public let fleet: FleetIndex
    public let archive: any FixArchive
    public let zoneSet: ZoneSet
    public let metricsRegistry: PrometheusCollectorRegistry
    /// What is wrong with the service now (`/healthz`): a listener down, the
    /// archive failing; empty when all is well.
    public let healthProblems: @Sendable () -> [String]
    public let clock: @Sendable () -> Date
    /// Most fixes one `/fixes` request returns.
    public static let maxFixesPerRequest = 50_000

    public init(
        fleet: FleetIndex, archive: any FixArchive, zoneSet: ZoneSet, metricsRegistry: PrometheusCollectorRegistry,
        healthProblems: @escaping @Sendable () -> [String], clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fleet = fleet
        self.archive = archive
        self.zoneSet = zoneSet
        self.metricsRegistry = metricsRegistry
        self.healthProblems = healthProblems
        self.clock = clock
    }

    /// The routes, ready for an `Application` (or a test client).
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/healthz") { _, _ -> Response in
            let problems = healthProblems()
            guard problems.isEmpty else { return Problem.unavailable(problems.joined(separator: "; ")).response() }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/metrics") { _, _ -> Response in
            var text: [UInt8] = []
            metricsRegistry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("/v1/taxis/:taxiId") { _, context -> Response in
            let taxi = TaxiID(context.parameters.get("taxiId") ?? "")
            guard let entry = fleet.entry(for: taxi, now: clock()) else {
                return Problem.notFound("no taxi \(taxi) has reported a position").response()
            }
            return try json(TaxiJSON(entry))
        }
        router.get("/v1/zones/:zoneId/taxis") { _, context -> Response in
            let zone = ZoneID(context.parameters.get("zoneId") ?? "")
            guard zoneSet[zone] != nil else {
                return Problem.notFound("there is no zone \(zone) in the zone set").response()
            }
            return try json(ZoneTaxisJSON(zoneId: zone.text, taxis: fleet.entries(inZone: zone, now: clock()).map(TaxiJSON.init)))
        }
        router.get("/v1/taxis/:taxiId/fixes") { request, context -> Response in
            let taxi = TaxiID(context.parameters.get("taxiId") ?? "")
            let query = request.uri.queryParameters
            guard let fromText = query.get("from"), let from = FixTime.date(iso8601: fromText) else {
                return Problem.badRequest("query parameter 'from' must be an ISO 8601 time, e.g. 2026-11-23T08:00:00Z").response()
            }
            guard let toText = query.get("to"), let to = FixTime.date(iso8601: toText) else {
                return Problem.badRequest("query parameter 'to' must be an ISO 8601 time, e.g. 2026-11-23T09:00:00Z").response()
            }
            guard from <= to else {
                return Problem.badRequest("'from' (\(fromText)) is after 'to' (\(toText))").response()
            }
            let fixes = try archive.fixes(of: taxi, in: from...to, limit: Self.maxFixesPerRequest)
            return try json(fixes.map(TaxiJSON.init))
        }
        return router
    }

    private func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

/// `GET /v1/zones/{zoneId}/taxis`: the zone and its taxis, by taxi id.
struct ZoneTaxisJSON: Codable, Sendable {
    var zoneId: String
    var taxis: [TaxiJSON]
}
