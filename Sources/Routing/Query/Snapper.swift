import Foundation
import GeoKit

/// Errors of snapping a coordinate onto the road graph.
public enum SnapError: Error, Equatable, CustomStringConvertible {
    /// The nearest road is farther than the limit (or the graph has no edges: distance infinite).
    case tooFarFromRoad(distanceMetres: Double, limitMetres: Double)

    public var description: String {
        switch self {
        case let .tooFarFromRoad(distance, limit):
            "nearest road is \(Int(distance.rounded())) m away, beyond the \(Int(limit.rounded())) m snapping limit"
        }
    }
}

/// Finds the nearest point on the nearest edge of a ``RoadGraph``.
///
/// Edges are bucketed in a uniform grid of square cells (by their bounding
/// boxes) on a local equirectangular projection centred on the graph's mean
/// latitude, accurate to well under a metre across a city. A query scans
/// rings of cells outward from the point's cell until no unscanned cell can
/// hold anything closer. Both edges of a two-way road lie on the same line;
/// the one found first wins, and routing adds its reverse twin itself.
///
/// ``candidates(_:maxDistanceMetres:radiusMetres:limit:)`` also lists the
/// other roads near the point, for routers that let the path search choose
/// among them rather than trust the nearest (GPS in street canyons is often
/// closer to the wrong road).
public struct Snapper: Sendable {
    /// A coordinate placed on the road graph.
    public struct Snap: Sendable, Equatable {
        /// The edge the point was projected onto.
        public var edge: Int
        /// Where along the edge, from its tail (0) to its head (1).
        public var fraction: Double
        /// Distance from the coordinate to the projected point, in metres.
        public var distanceMetres: Double
        /// The projected point.
        public var point: Coordinate
    }

    /// The node each edge leaves (the graph's CSR only stores heads).
    public let edgeTail: [UInt32]
    private let edgeHead: [UInt32]
    private let x: [Double], y: [Double]
    private let xScale: Double, yScale: Double
    private let cellSize: Double
    private let minX: Double, minY: Double
    private let columns: Int, rows: Int
    private let cellStart: [UInt32]
    private let cellEdges: [UInt32]

    /// Indexes every edge of `graph` in cells of `cellSizeMetres`.
    public init(graph: RoadGraph, cellSizeMetres: Double = 100) {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let meanLatitude = graph.coordinates.isEmpty ? 0
            : graph.coordinates.reduce(0) { $0 + $1.latitude } / Double(graph.nodeCount)
        xScale = metresPerDegree * cos(meanLatitude * .pi / 180)
        yScale = metresPerDegree
        x = graph.coordinates.map { $0.longitude * metresPerDegree * cos(meanLatitude * .pi / 180) }
        y = graph.coordinates.map { $0.latitude * metresPerDegree }
        cellSize = cellSizeMetres
        minX = x.min() ?? 0
        minY = y.min() ?? 0
        columns = Int(((x.max() ?? 0) - minX) / cellSizeMetres) + 1
        rows = Int(((y.max() ?? 0) - minY) / cellSizeMetres) + 1
        edgeTail = graph.edgeTail
        edgeHead = graph.edgeHead

        // Two passes over the edges' cell ranges: count, then fill.
        let cellCount = columns * rows
        var start = [UInt32](repeating: 0, count: cellCount + 1)
        var fill: [UInt32] = []
        var cursor: [UInt32] = []
        for pass in 0..<2 {
            for edge in 0..<graph.edgeCount {
                let a = Int(edgeTail[edge]), b = Int(graph.edgeHead[edge])
                let (column0, row0) = Self.cell(min(x[a], x[b]), min(y[a], y[b]), minX, minY, cellSizeMetres)
                let (column1, row1) = Self.cell(max(x[a], x[b]), max(y[a], y[b]), minX, minY, cellSizeMetres)
                for row in row0...row1 {
                    for column in column0...column1 {
                        let cell = row * columns + column
                        if pass == 0 {
                            start[cell + 1] += 1
                        } else {
                            fill[Int(cursor[cell])] = UInt32(edge)
                            cursor[cell] += 1
                        }
                    }
                }
            }
            if pass == 0 {
                for cell in 0..<cellCount { start[cell + 1] += start[cell] }
                fill = [UInt32](repeating: 0, count: Int(start[cellCount]))
                cursor = start
            }
        }
        cellStart = start
        cellEdges = fill
    }

    /// The nearest point on any edge to `coordinate`.
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:)`` when
    ///   that point is more than `maxDistanceMetres` away, naming its distance.
    public func snap(_ coordinate: Coordinate, maxDistanceMetres: Double) throws -> Snap {
        guard let found = nearest(to: coordinate, within: maxDistanceMetres) else {
            throw tooFar(coordinate, limitMetres: maxDistanceMetres)
        }
        return makeSnap(edge: found.edge, fraction: found.fraction, distance: found.distance)
    }

    /// The ways onto the road graph near `coordinate`: the nearest snap (as
    /// ``snap(_:maxDistanceMetres:)``), then the nearest point of every other
    /// road whose projection lies strictly within `radiusMetres`, nearest
    /// first, at most `limit` in all.
    ///
    /// An edge and its reverse twin are one road and give one candidate (the
    /// router seeds both directions of a road itself), and roads whose
    /// nearest point is the junction they share give one candidate there
    /// (starting at a junction is the same whichever road names it), so the
    /// limit goes to places that differ. A radius of 0 gives the nearest snap
    /// alone.
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:)`` when
    ///   the nearest road is more than `maxDistanceMetres` away.
    public func candidates(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                           limit: Int = 8) throws -> [Snap] {
        guard let found = candidatesIfNear(coordinate, maxDistanceMetres: maxDistanceMetres, radiusMetres: radiusMetres,
                                           limit: limit)
        else { throw tooFar(coordinate, limitMetres: maxDistanceMetres) }
        return found
    }

    /// As ``candidates(_:maxDistanceMetres:radiusMetres:limit:)``, but nil
    /// when the nearest road is beyond `maxDistanceMetres`, without measuring
    /// how far it is (which scans every edge): for snapping a moving fleet,
    /// whose taxis leave the map now and then.
    public func candidatesIfNear(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                                 limit: Int = 8) -> [Snap]? {
        guard let best = nearest(to: coordinate, within: maxDistanceMetres) else { return nil }
        let nearest = makeSnap(edge: best.edge, fraction: best.fraction, distance: best.distance)
        guard radiusMetres > 0, limit > 1 else { return [nearest] }
        let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
        let (column0, row0) = Self.cell(px - radiusMetres, py - radiusMetres, minX, minY, cellSize)
        let (column1, row1) = Self.cell(px + radiusMetres, py + radiusMetres, minX, minY, cellSize)
        let lowRow = max(row0, 0), highRow = min(row1, rows - 1)
        let lowColumn = max(column0, 0), highColumn = min(column1, columns - 1)
        guard lowRow <= highRow, lowColumn <= highColumn else { return [nearest] }
        var nearby: [(edge: Int, fraction: Double, distance: Double)] = []
        for row in lowRow...highRow {
            for column in lowColumn...highColumn {
                let cell = row * columns + column
                for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    let edge = Int(cellEdges[slot])
                    let (fraction, distance) = projection(of: px, py, onto: edge)
                    if distance < radiusMetres { nearby.append((edge, fraction, distance)) }
                }
            }
        }
        nearby.sort { ($0.distance, $0.edge) < ($1.distance, $1.edge) }
        var found = [nearest]
        found.reserveCapacity(min(limit, nearby.count + 1))
        for candidate in nearby where found.count < limit {
            let place = place(edge: candidate.edge, fraction: candidate.fraction)
            if found.contains(where: { self.place(edge: $0.edge, fraction: $0.fraction) == place }) { continue }
            found.append(makeSnap(edge: candidate.edge, fraction: candidate.fraction, distance: candidate.distance))
        }
        return found
    }

    /// The nearest edge to `coordinate` when it is at most `limit` metres
    /// away: rings of cells outward until none unscanned can hold anything closer.
    private func nearest(to coordinate: Coordinate, within limit: Double) -> (edge: Int, fraction: Double, distance: Double)? {
        let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
        let (column, row) = Self.cell(px, py, minX, minY, cellSize)
        var best: (edge: Int, fraction: Double, distance: Double)? = nil
        var ring = 0
        while true {
            forEachCell(around: column, row, ring: ring) { cell in
                for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    consider(Int(cellEdges[slot]), px, py, &best)
                }
            }
            let cleared = Double(ring) * cellSize
            if let found = best, found.distance <= cleared { break }
            if cleared > limit { break }
            ring += 1
        }
        guard let best, best.distance <= limit else { return nil }
        return best
    }

    /// The error for `coordinate` lying beyond `limitMetres` of every road,
    /// naming how far the nearest one is: found by scanning every edge, which
    /// only a failure pays for.
    private func tooFar(_ coordinate: Coordinate, limitMetres: Double) -> SnapError {
        let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
        var nearest: (edge: Int, fraction: Double, distance: Double)? = nil
        for edge in 0..<edgeHead.count { consider(edge, px, py, &nearest) }
        return .tooFarFromRoad(distanceMetres: nearest?.distance ?? .infinity, limitMetres: limitMetres)
    }

    /// Where a snap puts a route's end, for telling candidates apart: the
    /// node itself when the projection falls on an end of the edge (every
    /// road meeting there gives the same start), else the road (the edge's
    /// two end nodes in either order, so an edge and its twin are one).
    private func place(edge: Int, fraction: Double) -> SnapPlace {
        if fraction == 0 { return .node(edgeTail[edge]) }
        if fraction == 1 { return .node(edgeHead[edge]) }
        let a = edgeTail[edge], b = edgeHead[edge]
        return .road(min(a, b), max(a, b))
    }

    /// See ``place(edge:fraction:)``.
    private enum SnapPlace: Equatable {
        case node(UInt32)
        case road(UInt32, UInt32)
    }

    /// The snap at `fraction` along `edge`, `distance` metres from the coordinate.
    private func makeSnap(edge: Int, fraction: Double, distance: Double) -> Snap {
        let a = Int(edgeTail[edge]), b = Int(edgeHead[edge])
        let pointX = x[a] + (x[b] - x[a]) * fraction, pointY = y[a] + (y[b] - y[a]) * fraction
        return Snap(edge: edge, fraction: fraction, distanceMetres: distance,
                    point: Coordinate(longitude: pointX / xScale, latitude: pointY / yScale))
    }

    /// Where the projected point (`px`, `py`) falls on `edge` (fraction from its tail) and how far from it, in metres.
    @inline(__always)
    private func projection(of px: Double, _ py: Double, onto edge: Int) -> (fraction: Double, distance: Double) {
        let a = Int(edgeTail[edge]), b = Int(edgeHead[edge])
        let dx = x[b] - x[a], dy = y[b] - y[a]
        let squared = dx * dx + dy * dy
        let t = squared > 0 ? min(max(((px - x[a]) * dx + (py - y[a]) * dy) / squared, 0), 1) : 0
        let ex = x[a] + dx * t - px, ey = y[a] + dy * t - py
        return (t, (ex * ex + ey * ey).squareRoot())
    }

    @inline(__always)
    private func consider(_ edge: Int, _ px: Double, _ py: Double,
                          _ best: inout (edge: Int, fraction: Double, distance: Double)?) {
        let (t, distance) = projection(of: px, py, onto: edge)
        if distance < best?.distance ?? .infinity { best = (edge, t, distance) }
    }

    /// Calls `body` with each existing grid cell at Chebyshev distance `ring` from (`column`, `row`).
    @inline(__always)
    private func forEachCell(around column: Int, _ row: Int, ring: Int, _ body: (Int) -> Void) {
        let low = max(row - ring, 0), high = min(row + ring, rows - 1)
        guard low <= high else { return }
        for r in low...high {
            let edgeRow = r == row - ring || r == row + ring
            let step = edgeRow ? 1 : max(2 * ring, 1)
            for c in stride(from: column - ring, through: column + ring, by: step) where c >= 0 && c < columns {
                body(r * columns + c)
            }
        }
    }

    /// The cell holding a projected point; may lie outside the grid.
    private static func cell(_ px: Double, _ py: Double, _ minX: Double, _ minY: Double, _ size: Double) -> (Int, Int) {
        let column = ((px - minX) / size).rounded(.down), row = ((py - minY) / size).rounded(.down)
        return (Int(max(min(column, 1e9), -1e9)), Int(max(min(row, 1e9), -1e9)))
    }
}
