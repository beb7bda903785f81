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

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: eta)
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
                durationS: route.durationSeconds, distanceM: route.distanceMetres, depart: FixTime.iso8601(depart)))
        } catch let error as SnapError {
            throw Problem.unprocessable("a point cannot be placed on the road map: \(error)")
        } catch RouteError.noRoute {
            throw Problem.unprocessable("no road route leads from \(from) to \(to)")
        }
    }
}

/// `GET /v1/eta`.
struct TravelTimeJSON: Codable, Sendable {
    /// Driving time, seconds, at the departure hour's speeds.
    var durationS: Double
    /// Driving distance, metres.
    var distanceM: Double
    /// ISO 8601: the departure the estimate is for.
    var depart: String
}
