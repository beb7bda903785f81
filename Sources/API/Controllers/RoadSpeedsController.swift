import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import JSONKit
import Routing
import Storage

/// `/v1/roads/speeds`: the roads whose travel times the fleet taught the
/// router, each with its learned time against the speed profile's, for the
/// dispatchers' map to colour (SPEC R4): a street slower than the profile
/// says shows red, a faster one green.
struct RoadSpeedsController: Sendable {
    let router: RoadRouter
    /// The moment shown when the request names none: the fleet's (the newest fix learned from).
    let fleetTime: @Sendable () -> Date
    /// The node each edge leaves (the graph only stores heads), computed once.
    let edgeTails: [UInt32]
    /// Roads whose learned time is within this fraction of the profile's are left out.
    static let smallestDifference = 0.05

    init(router: RoadRouter, fleetTime: @escaping @Sendable () -> Date) {
        self.router = router
        self.fleetTime = fleetTime
        edgeTails = router.snapper.edgeTail
    }

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get("speeds", use: speeds)
    }

    /// `GET /v1/roads/speeds?at=ISO8601` (default: the time of the newest
    /// fix learned from, which is now unless the fleet is a replay) → a GeoJSON FeatureCollection of
    /// LineStrings, one per road segment (each direction apart) whose time
    /// differs from the profile's by more than 5 %, with `ratio` (profile
    /// time ÷ the router's: below 1 slower than the profile), `kmh` (the
    /// router's speed) and `profileKmh`, and the collection's `speeds`
    /// (where the times come from) and `at`.
    @Sendable func speeds(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let at = try request.queryTime("at", default: fleetTime())
        let current = router.metric(departing: at).edgeWeights
        let profile = (router.speeds as? LearnedEdgeSpeeds)?.base.edgeDurations(departing: at, timeZone: router.timeZone) ?? current
        let graph = router.graph
        var features: [JSONValue] = []
        for edge in 0..<graph.edgeCount where current[edge] != unreachableMs && current[edge] > 0 && profile[edge] > 0 {
            let ratio = Double(profile[edge]) / Double(current[edge])
            guard abs(ratio - 1) > Self.smallestDifference else { continue }
            let metres = Double(graph.edgeLengthMetres[edge])
            let from = graph.coordinates[Int(edgeTails[edge])], to = graph.coordinates[Int(graph.edgeHead[edge])]
            features.append(.object([
                "type": .string("Feature"),
                "properties": .object([
                    "ratio": .number((ratio * 100).rounded() / 100),
                    "kmh": .number(JSONWriter.roundedTenths(metres / (Double(current[edge]) / 1000) * 3.6)),
                    "profileKmh": .number(JSONWriter.roundedTenths(metres / (Double(profile[edge]) / 1000) * 3.6)),
                ]),
                "geometry": .object([
                    "type": .string("LineString"),
                    "coordinates": .array([from, to].map { .array([.number($0.longitude), .number($0.latitude)]) }),
                ]),
            ]))
        }
        let collection = JSONValue.object([
            "type": .string("FeatureCollection"),
            "speeds": .string(router.speedProvenance(departing: at).rawValue),
            "at": .string(FixTime.iso8601(at)),
            "features": .array(features),
        ])
        return Response(status: .ok, headers: [.contentType: "application/geo+json"],
                        body: .init(byteBuffer: ByteBuffer(string: collection.serialized)))
    }
}
