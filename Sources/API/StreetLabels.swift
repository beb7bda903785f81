import Foundation
import GeoKit
import Routing

/// Where the dispatchers' map writes street names at street zoom, so that
/// a dispatcher can place a caller who names a corner: the graph's road
/// names (OSM `name`, else `ref`) on the longest stretches first, each name
/// repeated along a long street but never crowding another label.
struct StreetLabels: Sendable {
    /// One label: the street's name, where it goes and the angle its text
    /// is turned by (degrees clockwise, between -90 and 90, so it never
    /// reads upside down).
    struct Label: Sendable, Equatable {
        var name: String
        var at: Coordinate
        var angleDegrees: Double
    }

    /// A named road segment that may carry a label.
    private struct Segment: Sendable {
        var name: UInt32
        var middle: Coordinate
        var lengthMetres: Double
        var angleDegrees: Double
    }

    /// The labels of one street stay this far apart, metres.
    static let sameNameSpacingMetres = 250.0
    /// No two labels come closer than this, metres.
    static let anyLabelSpacingMetres = 45.0
    /// Segments shorter than this carry no label: the text would hide the crossing.
    static let shortestLabelledMetres = 20.0
    /// The most labels one answer holds.
    static let maxLabels = 400
    /// The grid the segments are bucketed by, degrees: a view is a few cells.
    private static let cellDegrees = 0.005

    private let names: [String]
    private let cells: [Int64: [Segment]]

    /// The labels that `graph`'s `edgeNames` can give; none when the graph
    /// was built without names.
    init(graph: RoadGraph, edgeNames: EdgeNames?) {
        guard let edgeNames else {
            names = []
            cells = [:]
            return
        }
        let tails = graph.edgeTails()
        var drawn = Set<[UInt32]>()
        var cells: [Int64: [Segment]] = [:]
        for edge in 0..<graph.edgeCount where edgeNames.edgeName[edge] != EdgeNames.unnamed {
            let ends = [tails[edge], graph.edgeHead[edge]].sorted()
            let length = Double(graph.edgeLengthMetres[edge])
            guard length >= Self.shortestLabelledMetres, drawn.insert(ends).inserted else { continue }
            let from = graph.coordinates[Int(ends[0])], to = graph.coordinates[Int(ends[1])]
            let middle = Coordinate(longitude: (from.longitude + to.longitude) / 2, latitude: (from.latitude + to.latitude) / 2)
            let segment = Segment(name: edgeNames.edgeName[edge], middle: middle, lengthMetres: length,
                                  angleDegrees: Self.readableAngle(from: from, to: to))
            cells[Self.cell(of: middle), default: []].append(segment)
        }
        names = edgeNames.names
        self.cells = cells
    }

    /// The labels inside `box` (west, south, east, north), longest stretch first.
    func labels(in box: (west: Double, south: Double, east: Double, north: Double)) -> [Label] {
        var inside: [Segment] = []
        let columns = Self.index(box.west)...Self.index(box.east)
        let rows = Self.index(box.south)...Self.index(box.north)
        for column in columns {
            for row in rows {
                for segment in cells[Self.key(column: column, row: row)] ?? [] {
                    let point = segment.middle
                    if point.longitude >= box.west, point.longitude <= box.east, point.latitude >= box.south, point.latitude <= box.north {
                        inside.append(segment)
                    }
                }
            }
        }
        inside.sort { ($0.lengthMetres, $0.middle.longitude, $0.middle.latitude) > ($1.lengthMetres, $1.middle.longitude, $1.middle.latitude) }
        var placed: [Segment] = []
        for segment in inside where placed.count < Self.maxLabels {
            let crowded = placed.contains { other in
                let apart = other.middle.haversineDistance(to: segment.middle)
                return apart < Self.anyLabelSpacingMetres || (other.name == segment.name && apart < Self.sameNameSpacingMetres)
            }
            if !crowded { placed.append(segment) }
        }
        return placed.map { Label(name: names[Int($0.name)], at: $0.middle, angleDegrees: $0.angleDegrees) }
    }

    /// The angle, in degrees clockwise on a north-up map, of the text along
    /// the segment `from`–`to`, turned to read left to right.
    static func readableAngle(from: Coordinate, to: Coordinate) -> Double {
        let east = (to.longitude - from.longitude) * cos(from.latitude * .pi / 180)
        let south = -(to.latitude - from.latitude)
        var angle = atan2(south, east) * 180 / .pi
        if angle > 90 { angle -= 180 }
        if angle <= -90 { angle += 180 }
        return (angle * 10).rounded() / 10
    }

    private static func index(_ degrees: Double) -> Int64 {
        Int64((degrees / cellDegrees).rounded(.down))
    }

    private static func key(column: Int64, row: Int64) -> Int64 {
        column &* 1_000_003 &+ row
    }

    private static func cell(of point: Coordinate) -> Int64 {
        key(column: index(point.longitude), row: index(point.latitude))
    }
}
