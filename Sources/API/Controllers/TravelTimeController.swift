import DispatchService
import FixRecords
import Foundation
import Hummingbird
import Ingest
import Routing
import ServiceClock
import Storage

/// `/v1/eta`: the router's driving time and distance between two points,
/// leaving at a given time (SPEC R3, R4), for every logged-in role.
struct TravelTimeController: Sendable {
    let router: Routing.Router
    let clock: any ServiceClock

    /// Most sources times targets one table request may ask for.
    static let maxTableCells = 10_000

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: eta)
        group.post("table", use: table)
    }

    /// `POST /v1/eta/table` `{"sources": [points], "targets": [points], "depart"?}` →
    /// `{"durationsS": [[...]], "distancesM": [[...]], "depart"}`, one row per
    /// source, `null` where a pair cannot be routed (SPEC R3); at most
    /// ``maxTableCells`` pairs.
    @Sendable func table(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let body = try await request.decode(as: TableBody.self, context: context)
        guard !body.sources.isEmpty, !body.targets.isEmpty, body.sources.count * body.targets.count <= Self.maxTableCells else {
            throw Problem.badRequest("'sources' and 'targets' must each name at least one point, and at most \(Self.maxTableCells) pairs together")
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
            depart: FixTime.iso8601(depart), speeds: router.speedProvenance(departing: depart).rawValue))
    }

    /// `GET /v1/eta?from=LON,LAT&to=LON,LAT&depart=ISO8601` → `{"durationS", "distanceM", "depart"}`.
    @Sendable func eta(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let from = try request.queryPoint("from")
        let to = try request.queryPoint("to")
        let depart = try request.queryTime("depart", default: clock.now)
        do {
            let route = try router.route(from: from, to: to, depart: depart)
            return try JSONResponse.ok(TravelTimeJSON(
                durationS: JSONWriter.roundedTenths(route.durationSeconds), distanceM: JSONWriter.roundedTenths(route.distanceMetres),
                depart: FixTime.iso8601(depart), speeds: router.speedProvenance(departing: depart).rawValue))
        } catch let error as SnapError {
            throw Problem.unprocessable("a point cannot be placed on the road map: \(error)")
        } catch RouteError.noRoute {
            throw Problem.unprocessable("no road route leads from \(from) to \(to)")
        }
    }
}

/// The body of `POST /v1/eta/table`.
struct TableBody: Codable, Sendable {
    var sources: [PointJSON]
    var targets: [PointJSON]
    /// ISO 8601; now when absent.
    var depart: String?
}

/// `POST /v1/eta/table`: row per source, column per target; null where no route.
struct TableJSON: Codable, Sendable {
    var durationsS: [[Double?]]
    var distancesM: [[Double?]]
    var depart: String
    /// Where the speeds came from, as ``TravelTimeJSON/speeds``.
    var speeds: String
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
}
