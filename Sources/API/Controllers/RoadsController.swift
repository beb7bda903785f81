import Foundation
import GeoKit
import Hummingbird
import Routing
import Storage

/// `/v1/roads`: the main roads of the road graph (motorways to tertiary
/// streets), for the map to draw lightly beneath the zones: the service
/// draws its own map, with no tiles from elsewhere.
struct RoadsController: Sendable {
    /// Who may read the roads (those who may read the zones).
    static let readers: Set<Role> = ZonesController.readers
    /// The classes drawn.
    static let mainClasses: Set<RoadClass> = [
        .motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink, .secondary, .secondaryLink, .tertiary, .tertiaryLink,
    ]

    /// The roads as a GeoJSON FeatureCollection, written once.
    let featureCollection: Data

    /// The main roads of `graph`.
    init(graph: RoadGraph) {
        featureCollection = Self.featureCollection(of: graph)
    }

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: list)
    }

    /// `GET /v1/roads`: one MultiLineString feature with every main road's segments.
    @Sendable func list(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        return Response(
            status: .ok, headers: [.contentType: "application/geo+json"], body: .init(byteBuffer: ByteBuffer(bytes: featureCollection)))
    }

    /// One feature whose MultiLineString has a two-point line per main-road
    /// edge; a two-way road's edges are drawn once.
    static func featureCollection(of graph: RoadGraph) -> Data {
        let tails = graph.edgeTails()
        var drawn = Set<[UInt32]>()
        var lines: [JSONValue] = []
        for edge in 0..<graph.edgeCount where mainClasses.contains(graph.edgeRoadClass[edge]) {
            let ends = [tails[edge], graph.edgeHead[edge]].sorted()
            guard drawn.insert(ends).inserted else { continue }
            lines.append(.array(ends.map { node in
                let point = graph.coordinates[Int(node)]
                return .array([.number(point.longitude), .number(point.latitude)])
            }))
        }
        let feature: JSONValue = .object([
            "type": .string("Feature"), "properties": .object(["kind": .string("main roads")]),
            "geometry": .object(["type": .string("MultiLineString"), "coordinates": .array(lines)]),
        ])
        return Data(JSONValue.object(["type": .string("FeatureCollection"), "features": .array([feature])]).serialized.utf8)
    }
}
