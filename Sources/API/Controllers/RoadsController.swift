import DispatchRuntime
import Foundation
import GeoKit
import Hummingbird
import JSONKit
import Routing
import Storage

/// `/v1/roads`: the main roads of the road graph (motorways to tertiary
/// streets), for the map to draw lightly beneath the zones: the service
/// draws its own map, with no tiles from elsewhere.
struct RoadsController: Sendable {
    /// Who may read the roads: every role, since the passenger's and the
    /// driver's apps draw the city's map as the dispatcher's does.
    static let readers = Set(Role.allCases)
    /// The classes drawn.
    static let mainClasses: Set<RoadClass> = [
        .motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink, .secondary, .secondaryLink, .tertiary, .tertiaryLink,
    ]

    /// The widest box, in degrees either way, street names are given for:
    /// about 4 km, a street-level view on any screen.
    static let widestNamedBoxDegrees = 0.05

    /// The roads as a GeoJSON FeatureCollection, written once.
    let featureCollection: Data
    /// The street names, placed on request.
    let streetLabels: StreetLabels

    /// The main roads of `graph`, and the street names of `edgeNames`.
    init(graph: RoadGraph, edgeNames: EdgeNames?) {
        featureCollection = Self.featureCollection(of: graph)
        streetLabels = StreetLabels(graph: graph, edgeNames: edgeNames)
    }

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: list)
        group.get("names", use: names)
    }

    /// `GET /v1/roads/names?bbox=WEST,SOUTH,EAST,NORTH`: the street names
    /// to write on the map at street zoom, a GeoJSON FeatureCollection of
    /// Points with `name` and `angle` (degrees clockwise, to turn the text
    /// along the street); empty for a graph built without names.
    @Sendable func names(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let box = try Self.box(request.uri.queryParameters.get("bbox").map { String($0) })
        let features: [JSONValue] = streetLabels.labels(in: box).map { label in
            .object([
                "type": .string("Feature"),
                "properties": .object(["name": .string(label.name), "angle": .number(label.angleDegrees)]),
                "geometry": .object([
                    "type": .string("Point"),
                    "coordinates": .array([.number(JSONWriter.roundedDegrees(label.at.longitude)),
                                           .number(JSONWriter.roundedDegrees(label.at.latitude))]),
                ]),
            ])
        }
        let body = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)]).serialized
        return Response(status: .ok, headers: [.contentType: "application/geo+json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The box of a `bbox` parameter.
    /// - Throws: ``Problem`` 400 when it is not four numbers; 422 when it is
    ///   off the globe, empty (west not below east, south not below north)
    ///   or spans more than ``widestNamedBoxDegrees`` (the map asks only at street zoom).
    static func box(_ text: String?) throws -> (west: Double, south: Double, east: Double, north: Double) {
        let numbers = text?.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard let numbers, numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3]
        else {
            throw Problem.badRequest("query parameter 'bbox' must be WEST,SOUTH,EAST,NORTH in degrees, e.g. bbox=-73.99,40.75,-73.98,40.76")
        }
        guard (-180...180).contains(west), (-180...180).contains(east), (-90...90).contains(south), (-90...90).contains(north) else {
            throw Problem.unprocessable("the box \(west),\(south),\(east),\(north) is off the globe: longitudes are -180 to 180, latitudes -90 to 90")
        }
        guard west < east, south < north else {
            throw Problem.unprocessable("the box \(west),\(south),\(east),\(north) is empty: WEST must be below EAST and SOUTH below NORTH")
        }
        let span = max(east - west, north - south)
        guard span <= widestNamedBoxDegrees else {
            throw Problem.unprocessable(
                "the box spans \(String(format: "%.3f", span))°; street names are given for at most \(widestNamedBoxDegrees)° (zoom in)")
        }
        return (west, south, east, north)
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
