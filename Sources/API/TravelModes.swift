import Hummingbird
import Routing

/// The routers of the ways to travel the API answers for: by car (the
/// service's router, learning from the fleet) and on foot (SPEC R5, when
/// `serve --foot-graph` gave a walking graph).
struct TravelModes: Sendable {
    let car: RoadRouter
    let foot: RoadRouter?

    /// The router for `mode` (`car` when nil).
    /// - Throws: ``Problem`` 400 for an unknown mode, 422 for walking without a foot graph.
    func router(_ mode: String?) throws -> RoadRouter {
        switch mode ?? "car" {
        case "car": return car
        case "foot":
            guard let foot else {
                throw Problem.unprocessable("this service has no walking graph: start serve with --foot-graph (mytaxi graph build --profile foot)")
            }
            return foot
        default:
            throw Problem.badRequest("'mode' must be car or foot, not '\(mode ?? "")'")
        }
    }
}
