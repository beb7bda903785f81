import GeoKit
import JSONKit
import Routing

/// A route as a GeoJSON Feature: its LineString (from the snapped start
/// through the road nodes to the snapped end) and `durationS` and
/// `distanceM` with the caller's other `properties`, as `GET /v1/route`
/// and a ride's route give it.
enum RouteFeature {
    /// The feature of `route`, whose properties are its time and length and `properties`.
    static func json(_ route: Routing.Route, properties: [String: JSONValue]) -> JSONValue {
        var all = properties
        all["durationS"] = .number(JSONWriter.roundedTenths(route.durationSeconds))
        all["distanceM"] = .number(JSONWriter.roundedTenths(route.distanceMetres))
        return .object([
            "type": .string("Feature"),
            "geometry": .object([
                "type": .string("LineString"),
                "coordinates": .array(route.geometry.map { .array([.number($0.longitude), .number($0.latitude)]) }),
            ]),
            "properties": .object(all),
        ])
    }
}
