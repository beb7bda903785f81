import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import Ingest
import JSONKit
import Routing
import ServiceClock
import Storage

/// `/v1/eta` and `/v1/route`: the router's travel time and distance
/// between two points, by car or on foot, leaving at a given time, and the
/// route's line (SPEC R3, R4, R5), for every logged-in role.
struct TravelTimeController: Sendable {
    let routers: TravelModes
    let clock: any ServiceClock

    /// Most sources times targets one table request may ask for.
    static let maxTableCells = 10_000

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: eta)
        group.post("table", use: table)
    }

    /// `/v1/route`.
    func addRouteGeometry(to group: RouterGroup<APIRequestContext>) {
        group.get(use: route)
    }

    /// `POST /v1/eta/table` `{"sources": [points], "targets": [points], "depart"?}` →
    /// `{"durationsS": [[...]], "distancesM": [[...]], "depart"}`, one row per
    /// source, `null` where a pair cannot be routed (SPEC R3); at most
    /// ``maxTableCells`` pairs (more is a 422: each list is well formed, the product is not answerable).
    @Sendable func table(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let body = try await request.decode(as: TableBody.self, context: context)
        let router = try routers.router(body.mode)
        guard !body.sources.isEmpty, !body.targets.isEmpty else {
            throw Problem.badRequest("'sources' and 'targets' must each name at least one point")
        }
        guard body.sources.count * body.targets.count <= Self.maxTableCells else {
            throw Problem.unprocessable(
                "\(body.sources.count) sources and \(body.targets.count) targets are \(body.sources.count * body.targets.count) pairs, more than the \(Self.maxTableCells) one table may have: split the request")
        }
        let sources = try body.sources.enumerated().map { try $1.coordinate(field: "sources[\($0)]") }
        let targets = try body.targets.enumerated().map { try $1.coordinate(field: "targets[\($0)]") }
        var depart = clock.now
        if let text = body.depart {
            guard let date = FixTime.date(iso8601: text) else { throw Problem.badRequest("'depart' must be an ISO 8601 time") }
            depart = date
        }
        var rows: [[TravelEstimate?]] = Array(repeating: [], count: sources.count)
        for target in targets {
            let column = (try? router.table(from: sources, to: target, depart: depart)) ?? Array(repeating: nil, count: sources.count)
            for (row, estimate) in column.enumerated() { rows[row].append(estimate) }
        }
        return try JSONResponse.ok(TableJSON(
            durationsS: rows.map { $0.map { $0.map { JSONWriter.roundedTenths($0.durationSeconds) } } },
            distancesM: rows.map { $0.map { $0.map { JSONWriter.roundedTenths($0.distanceMetres) } } },
            depart: FixTime.iso8601(depart), speeds: router.speedProvenance(departing: depart).rawValue, mode: body.mode ?? "car"))
    }

    /// `GET /v1/eta?from=LON,LAT&to=LON,LAT&depart=ISO8601&mode=car|foot` →
    /// `{"durationS", "distanceM", "depart", "speeds", "mode"}`.
    @Sendable func eta(_ request: Request, context: APIRequestContext) throws -> Response {
        let (route, router, depart, mode) = try routed(request, context: context, geometry: false)
        return try JSONResponse.ok(TravelTimeJSON(
            durationS: JSONWriter.roundedTenths(route.durationSeconds), distanceM: JSONWriter.roundedTenths(route.distanceMetres),
            depart: FixTime.iso8601(depart), speeds: router.speedProvenance(departing: depart).rawValue, mode: mode))
    }

    /// `GET /v1/route?from=LON,LAT&to=LON,LAT&depart=ISO8601&mode=car|foot` →
    /// a GeoJSON Feature: the route's LineString (from the snapped start
    /// through the road nodes to the snapped end) with `durationS`,
    /// `distanceM`, `depart`, `speeds` and `mode`.
    @Sendable func route(_ request: Request, context: APIRequestContext) throws -> Response {
        let (route, router, depart, mode) = try routed(request, context: context, geometry: true)
        let feature = RouteFeature.json(route, properties: [
            "depart": .string(FixTime.iso8601(depart)),
            "speeds": .string(router.speedProvenance(departing: depart).rawValue),
            "mode": .string(mode),
        ])
        return Response(status: .ok, headers: [.contentType: "application/geo+json"],
                        body: .init(byteBuffer: ByteBuffer(string: feature.serialized)))
    }

    /// The route the query of `request` asks for, the router that found it, the departure and the mode.
    private func routed(_ request: Request, context: APIRequestContext, geometry: Bool) throws
        -> (route: Routing.Route, router: RoadRouter, depart: Date, mode: String) {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let from = try request.queryPoint("from")
        let to = try request.queryPoint("to")
        let depart = try request.queryTime("depart", default: clock.now)
        let mode = request.uri.queryParameters.get("mode") ?? "car"
        let router = try routers.router(mode)
        do {
            return (try router.route(from: from, to: to, depart: depart, includeGeometry: geometry), router, depart, mode)
        } catch let error as SnapError {
            throw Problem.unprocessable("a point cannot be placed on the \(mode == "foot" ? "walking" : "road") map: \(error)")
        } catch RouteError.noRoute {
            throw Problem.unprocessable("no \(mode == "foot" ? "walking" : "road") route leads from \(from) to \(to)")
        }
    }
}

/// The body of `POST /v1/eta/table`.
struct TableBody: Codable, Sendable {
    var sources: [PointJSON]
    var targets: [PointJSON]
    /// ISO 8601; now when absent.
    var depart: String?
    /// `car` (the default) or `foot`.
    var mode: String?
}

/// `POST /v1/eta/table`: row per source, column per target; null where no route.
struct TableJSON: Codable, Sendable {
    var durationsS: [[Double?]]
    var distancesM: [[Double?]]
    var depart: String
    /// Where the speeds came from, as ``TravelTimeJSON/speeds``.
    var speeds: String
    /// `car` or `foot`.
    var mode: String
}

/// `GET /v1/eta`.
struct TravelTimeJSON: Codable, Sendable {
    /// Driving time, seconds, at the departure hour's speeds.
    var durationS: Double
    /// Driving distance, metres.
    var distanceM: Double
    /// ISO 8601: the departure the estimate is for.
    var depart: String
    /// Where the speeds came from: `profile` (the weekly speed profile),
    /// `learned` (weekly speeds learned from the fleet's fixes) or `live`
    /// (the fleet's last minutes).
    var speeds: String
    /// `car` or `foot`.
    var mode: String
}
