/// A uniform grid over the road segments of a graph, on a local plane in
/// metres: the spatial index ``Snapper`` answers "which road is nearest to
/// this point" and "which roads lie within r metres" with.
///
/// Each segment is one road between two nodes: an edge and its reverse twin
/// (and parallel edges between the same two nodes) lie on the same line and
/// are stored once, as the lowest-numbered of them. A segment is listed in
/// every cell it comes within a margin of (its bounding box, grown by the
/// margin, holds the cells; a cell whose centre lies within half a cell
/// diagonal plus the margin of the segment lists it), with its end points
/// copied into the cell's list, so that a query reads each cell's segments
/// from one contiguous run of memory rather than chasing node numbers: on a
/// city of a million nodes the index is far larger than the caches, and the
/// misses, not the arithmetic, are what a query costs. For the same reason
/// the copies are single precision, relative to the cell's corner: 20 bytes
/// a segment instead of 40, and a distance still exact to a small fraction
/// of a millimetre over the few kilometres the longest road segment spans.
/// The segments (some 76 MB on a city of a million nodes, each listed in
/// about three cells) lie on huge pages where the system offers them
/// (``HugePageArray``): on small pages nearly every cell read also missed
/// the address translation cache, and snapping 2,000 points there took
/// 1.1-1.2 times as long. The cells' starts (4 bytes a cell, about 2 MB
/// there) stay in the caches, which is why fixed-size cell records (the
/// count and the first six segments in place, the rest in an overflow
/// list), finding a cell's segments without reading its start first, were
/// measured slower: 40 % of the cells overflowed, and the records took 30 %
/// more memory.
///
/// The margin is what makes most queries read one cell: every road within
/// the margin of a point is in the list of the point's own cell, so a road
/// found there within the margin is the nearest, and the roads within a
/// radius up to the margin are all there. The service's points are fixes
/// on roads, give or take the GPS error, and the router's radius is 15 m:
/// with a margin of 15 m (``Snapper``'s), snapping 2,000 such fixes on a
/// city of a million nodes took 0.70 times as long as reading two to three
/// cells each without a margin. A point farther from every road than the
/// margin (over water, in a park) goes on to the search outward, over
/// longer lists than without a margin: 1.1 times as long for random points
/// over the city's bounding box.
///
/// The cell size follows the density of the roads (1.4 times the side of
/// the square holding one segment on average, from 10 to 250 m: about 50 m
/// and seven segments listed a cell on that city), so dense centres and
/// sparse suburbs both cost a few segments' arithmetic per query. The
/// nearest-segment search beyond the point's cell scans squares of cells
/// outward, skipping cells farther than the best found, and stops as soon
/// as the square scanned holds every point closer than that.
struct SegmentGrid: Sendable {
    /// A segment on the plane: its ends and its edge.
    struct Segment: Sendable {
        var x0: Double, y0: Double, x1: Double, y1: Double
        var edge: UInt32
    }

    /// A segment as a cell lists it: its ends relative to the cell's lower
    /// left corner, in single precision, and its edge.
    struct ListedSegment: Sendable {
        var x0: Float, y0: Float, x1: Float, y1: Float
        var edge: UInt32

        init(_ segment: Segment, cornerX: Double, cornerY: Double) {
            x0 = Float(segment.x0 - cornerX)
            y0 = Float(segment.y0 - cornerY)
            x1 = Float(segment.x1 - cornerX)
            y1 = Float(segment.y1 - cornerY)
            edge = segment.edge
        }

        /// The segment back on the plane, relative to the same corner.
        @inline(__always)
        var relative: Segment {
            Segment(x0: Double(x0), y0: Double(y0), x1: Double(x1), y1: Double(y1), edge: edge)
        }
    }

    /// The nearest point of a segment to a query point.
    struct Hit: Sendable {
        /// The segment's edge.
        var edge: Int
        /// Where along the edge, from its tail (0) to its head (1).
        var fraction: Double
        /// Distance from the query point, in metres.
        var distance: Double
        /// The point itself, on the plane: taken from the cell's copy of the
        /// segment, so that placing it costs no look-up of the edge's nodes.
        var x: Double, y: Double

        /// The point `fraction` along `segment`, whose coordinates are relative to (`originX`, `originY`).
        init(_ segment: Segment, fraction: Double, distance: Double, originX: Double, originY: Double) {
            edge = Int(segment.edge)
            self.fraction = fraction
            self.distance = distance
            x = originX + segment.x0 + (segment.x1 - segment.x0) * fraction
            y = originY + segment.y0 + (segment.y1 - segment.y0) * fraction
        }
    }

    let cellSize: Double
    /// How far beyond a cell its list reaches: every segment that comes
    /// within this many metres of some point of the cell is listed in it.
    let margin: Double
    let minX: Double, minY: Double
    let columns: Int, rows: Int
    private let cellStart: HugePageArray<UInt32>
    private let segments: HugePageArray<ListedSegment>

    /// Indexes the segments of the edges `tail[e] → head[e]` whose nodes lie
    /// at (`x`, `y`) metres on the plane, each cell listing the segments that
    /// come within `margin` metres of it.
    init(x: [Double], y: [Double], firstEdge: [UInt32], edgeHead: [UInt32], edgeTail: [UInt32], margin: Double) {
        self.margin = margin
        let edges = Self.distinctSegments(firstEdge: firstEdge, edgeHead: edgeHead, edgeTail: edgeTail)
        minX = x.min() ?? 0
        minY = y.min() ?? 0
        let width = (x.max() ?? 0) - minX, height = (y.max() ?? 0) - minY
        cellSize = Self.cellSize(width: width, height: height, segments: edges.count)
        columns = Int(width / cellSize) + 1
        rows = Int(height / cellSize) + 1

        // Two passes over the cells each segment comes within the margin of: count, then fill.
        let cellCount = columns * rows
        var start = [UInt32](repeating: 0, count: cellCount + 1)
        var fill: [ListedSegment] = []
        var cursor: [UInt32] = []
        let reach = cellSize * 0.5 * 2.0.squareRoot() + margin
        for pass in 0..<2 {
            for edge in edges {
                let a = Int(edgeTail[Int(edge)]), b = Int(edgeHead[Int(edge)])
                let segment = Segment(x0: x[a], y0: y[a], x1: x[b], y1: y[b], edge: edge)
                var (column0, row0) = Self.cell(min(x[a], x[b]) - margin, min(y[a], y[b]) - margin, minX, minY, cellSize)
                var (column1, row1) = Self.cell(max(x[a], x[b]) + margin, max(y[a], y[b]) + margin, minX, minY, cellSize)
                (column0, row0) = (max(column0, 0), max(row0, 0))
                (column1, row1) = (min(column1, columns - 1), min(row1, rows - 1))
                for row in row0...row1 {
                    for column in column0...column1 {
                        let centreX = minX + (Double(column) + 0.5) * cellSize
                        let centreY = minY + (Double(row) + 0.5) * cellSize
                        guard Self.project(centreX, centreY, onto: segment).distance <= reach else { continue }
                        let index = row * columns + column
                        if pass == 0 {
                            start[index + 1] += 1
                        } else {
                            let corner = (x: minX + Double(column) * cellSize, y: minY + Double(row) * cellSize)
                            fill[Int(cursor[index])] = ListedSegment(segment, cornerX: corner.x, cornerY: corner.y)
                            cursor[index] += 1
                        }
                    }
                }
            }
            if pass == 0 {
                for index in 0..<cellCount { start[index + 1] += start[index] }
                let blank = ListedSegment(Segment(x0: 0, y0: 0, x1: 0, y1: 0, edge: 0), cornerX: 0, cornerY: 0)
                fill = [ListedSegment](repeating: blank, count: Int(start[cellCount]))
                cursor = start
            }
        }
        cellStart = HugePageArray(start)
        segments = HugePageArray(fill)
    }

    /// The nearest segment to (`px`, `py`) within `limit` metres, ties going
    /// to the lowest edge number; nil when none is that close.
    func nearest(_ px: Double, _ py: Double, within limit: Double) -> Hit? {
        var nearby: [Hit] = []
        return nearest(px, py, within: limit, collectingWithin: 0, into: &nearby)
    }

    /// As ``nearest(_:_:within:)``, also gathering into `nearby` every
    /// segment whose nearest point lies strictly within `radius` (in no
    /// particular order, each once): the cells the search reads anyway hold
    /// them, so the roads around a point cost one pass, not two.
    func nearest(_ px: Double, _ py: Double, within limit: Double, collectingWithin radius: Double,
                 into nearby: inout [Hit]) -> Hit? {
        let (column, row) = cell(px, py)
        var best = Hit(Segment(x0: 0, y0: 0, x1: 0, y1: 0, edge: .max), fraction: 0, distance: .infinity,
                       originX: 0, originY: 0)
        // The point's own cell lists every segment within `margin` of it: a
        // road found that near is the nearest, and the roads within a radius
        // no larger are all there. Otherwise the search goes on outward.
        let ownCellScanned = radius <= margin && column >= 0 && column < columns && row >= 0 && row < rows
        if ownCellScanned {
            let (cornerX, cornerY) = corner(column, row)
            scan(row * columns + column, cornerX, cornerY, px, py, &best, collectingWithin: radius, into: &nearby)
            if best.distance <= margin { return best.distance <= limit ? best : nil }
        }
        // Squares that do not reach the grid hold nothing: start at the first that does.
        var ring = max(0, -column, column - (columns - 1), -row, row - (rows - 1))
        while true {
            forEachCell(around: column, row, ring: ring) { cellColumn, cellRow in
                if ownCellScanned, ring == 0 { return }
                let (cornerX, cornerY) = corner(cellColumn, cellRow)
                guard Self.distance(px, py, toCellAt: cornerX, cornerY, size: cellSize) <= max(best.distance, radius)
                else { return }
                scan(cellRow * columns + cellColumn, cornerX, cornerY, px, py, &best, collectingWithin: radius,
                     into: &nearby)
            }
            // Every point closer than `cleared` lies in the square scanned so far.
            let left = minX + Double(column - ring) * cellSize, right = minX + Double(column + ring + 1) * cellSize
            let bottom = minY + Double(row - ring) * cellSize, top = minY + Double(row + ring + 1) * cellSize
            let cleared = min(px - left, right - px, py - bottom, top - py)
            if (best.distance <= cleared && radius <= cleared) || (cleared > limit && cleared >= radius)
                || ringCoversGrid(column, row, ring) { break }
            ring += 1
        }
        return best.distance <= limit ? best : nil
    }

    /// The distance from (`px`, `py`) to the nearest segment, scanning them
    /// all: for saying how far a point beyond every limit is, which only a
    /// failure pays for (infinite when there are no segments).
    func distanceToEverySegment(_ px: Double, _ py: Double) -> Double {
        var nearest = Double.infinity
        for index in 0..<columns * rows {
            let (cornerX, cornerY) = corner(index)
            for slot in Int(cellStart[index])..<Int(cellStart[index + 1]) {
                nearest = min(nearest, Self.project(px - cornerX, py - cornerY, onto: segments[slot].relative).distance)
            }
        }
        return nearest
    }

    /// Where the point (`px`, `py`) projects onto `segment` (fraction from
    /// its first end) and how far from it it is, in metres.
    @inline(__always)
    static func project(_ px: Double, _ py: Double, onto segment: Segment) -> (fraction: Double, distance: Double) {
        let dx = segment.x1 - segment.x0, dy = segment.y1 - segment.y0
        let squared = dx * dx + dy * dy
        let t = squared > 0 ? min(max(((px - segment.x0) * dx + (py - segment.y0) * dy) / squared, 0), 1) : 0
        let ex = segment.x0 + dx * t - px, ey = segment.y0 + dy * t - py
        return (t, (ex * ex + ey * ey).squareRoot())
    }

    /// Considers every segment of cell `index`, whose lower left corner is
    /// (`cornerX`, `cornerY`), for the nearest to (`px`, `py`), adding those
    /// strictly within `radius` to `nearby` once each.
    @inline(__always)
    private func scan(_ index: Int, _ cornerX: Double, _ cornerY: Double, _ px: Double, _ py: Double,
                      _ best: inout Hit, collectingWithin radius: Double, into nearby: inout [Hit]) {
        let qx = px - cornerX, qy = py - cornerY
        for slot in Int(cellStart[index])..<Int(cellStart[index + 1]) {
            let segment = segments[slot].relative
            let (fraction, distance) = Self.project(qx, qy, onto: segment)
            if distance < best.distance || (distance == best.distance && Int(segment.edge) < best.edge) {
                best = Hit(segment, fraction: fraction, distance: distance, originX: cornerX, originY: cornerY)
            }
            if distance < radius, !nearby.contains(where: { $0.edge == Int(segment.edge) }) {
                nearby.append(Hit(segment, fraction: fraction, distance: distance, originX: cornerX, originY: cornerY))
            }
        }
    }

    /// The lower left corner of cell `index` on the plane.
    private func corner(_ index: Int) -> (x: Double, y: Double) {
        corner(index % columns, index / columns)
    }

    /// The lower left corner of the cell in `column` and `row`: the search
    /// walks cells by column and row, so that it divides by nothing to
    /// place them.
    @inline(__always)
    private func corner(_ column: Int, _ row: Int) -> (x: Double, y: Double) {
        (minX + Double(column) * cellSize, minY + Double(row) * cellSize)
    }

    /// The distance from (`px`, `py`) to the nearest point of the square of
    /// side `size` whose lower left corner is (`left`, `bottom`).
    @inline(__always)
    private static func distance(_ px: Double, _ py: Double, toCellAt left: Double, _ bottom: Double,
                                 size: Double) -> Double {
        let dx = max(left - px, 0, px - left - size), dy = max(bottom - py, 0, py - bottom - size)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Whether the square of cells `ring` around (`column`, `row`) holds the whole grid.
    private func ringCoversGrid(_ column: Int, _ row: Int, _ ring: Int) -> Bool {
        column - ring <= 0 && row - ring <= 0 && column + ring >= columns - 1 && row + ring >= rows - 1
    }

    /// Calls `body` with the column and row of each cell of the grid at
    /// Chebyshev distance `ring` from (`column`, `row`).
    @inline(__always)
    private func forEachCell(around column: Int, _ row: Int, ring: Int, _ body: (Int, Int) -> Void) {
        let lowRow = max(row - ring, 0), highRow = min(row + ring, rows - 1)
        let lowColumn = max(column - ring, 0), highColumn = min(column + ring, columns - 1)
        guard lowRow <= highRow, lowColumn <= highColumn else { return }
        for r in lowRow...highRow {
            if r == row - ring || r == row + ring {
                for c in lowColumn...highColumn { body(c, r) }
            } else {
                if column - ring >= 0 { body(column - ring, r) }
                if ring > 0, column + ring < columns { body(column + ring, r) }
            }
        }
    }

    /// The cell holding a point on the plane; may lie outside the grid.
    @inline(__always)
    private func cell(_ px: Double, _ py: Double) -> (Int, Int) {
        Self.cell(px, py, minX, minY, cellSize)
    }

    /// The side of a cell for `segments` segments over `width` × `height`
    /// metres: about 1.4 times their mean spacing, within 10 to 250 metres;
    /// larger when that would make more than ``maximumCells(segments:)``
    /// cells, as for a graph spread thin over a continent (a node of a
    /// damaged file far from the rest asked for billions of 250 m cells).
    static func cellSize(width: Double, height: Double, segments: Int) -> Double {
        let area = max(width, 1) * max(height, 1)
        var size = min(max(1.4 * (area / Double(max(segments, 1))).squareRoot(), 10), 250)
        let limit = Double(maximumCells(segments: segments))
        while (width / size + 1) * (height / size + 1) > limit { size *= 1.5 }
        return size
    }

    /// At most four cells per segment, or 2^16 for a small graph: a city's
    /// graph has about one cell per two segments, so only a graph spread
    /// thin over a large area meets the limit.
    static func maximumCells(segments: Int) -> Int {
        max(4 * segments, 1 << 16)
    }

    /// The cell of side `size` holding (`px`, `py`) in a grid whose first cell's corner is (`minX`, `minY`).
    @inline(__always)
    private static func cell(_ px: Double, _ py: Double, _ minX: Double, _ minY: Double, _ size: Double) -> (Int, Int) {
        (floorInt((px - minX) / size), floorInt((py - minY) / size))
    }

    /// The greatest integer not above `value`, clamped to ±10⁹: `floor`
    /// without the C library's call, which x86-64's baseline instruction
    /// set (no SSE4.1 rounding) makes a function call twice a query.
    @inline(__always)
    private static func floorInt(_ value: Double) -> Int {
        let clamped = max(min(value, 1e9), -1e9)
        let truncated = Int(clamped)
        return Double(truncated) > clamped ? truncated - 1 : truncated
    }

    /// One edge per pair of nodes an edge joins (the lowest-numbered), in edge order.
    private static func distinctSegments(firstEdge: [UInt32], edgeHead: [UInt32], edgeTail: [UInt32]) -> [UInt32] {
        var kept: [UInt32] = []
        kept.reserveCapacity(edgeHead.count)
        for edge in 0..<edgeHead.count {
            let a = Int(edgeTail[edge]), b = Int(edgeHead[edge])
            let earlierSame = (Int(firstEdge[a])..<edge).contains { edgeHead[$0] == UInt32(b) }
            let twinsBefore = Int(firstEdge[b])..<max(Int(firstEdge[b]), min(Int(firstEdge[b + 1]), edge))
            let earlierTwin = twinsBefore.contains { edgeHead[$0] == UInt32(a) }
            if !earlierSame && !earlierTwin { kept.append(UInt32(edge)) }
        }
        return kept
    }
}
