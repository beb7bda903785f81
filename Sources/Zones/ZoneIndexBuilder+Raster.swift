/// The segments near each cell of a grid, in compressed rows
/// (`start[cell]..<start[cell + 1]` indexes `items`).
struct CellSegments {
    private var start: [Int32]
    private var items: [Int32]

    init(segments: [ZoneIndexBuilder.Segment], grid: ZoneIndex.Grid, margin: Double) {
        var counts = [Int32](repeating: 0, count: grid.columns * grid.rows + 1)
        for segment in segments {
            SegmentRaster.forEachCell(of: segment, in: grid, margin: margin) { column, row in
                counts[row * grid.columns + column + 1] += 1
            }
        }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var fill = counts
        var items = [Int32](repeating: 0, count: Int(counts[counts.count - 1]))
        for (index, segment) in segments.enumerated() {
            SegmentRaster.forEachCell(of: segment, in: grid, margin: margin) { column, row in
                let cell = row * grid.columns + column
                items[Int(fill[cell])] = Int32(index)
                fill[cell] += 1
            }
        }
        self.start = counts
        self.items = items
    }

    func segments(inCell cell: Int) -> ArraySlice<Int32> {
        items[Int(start[cell])..<Int(start[cell + 1])]
    }
}

/// Conservative rasterisation of a segment onto a grid.
enum SegmentRaster {
    /// Calls `body(column, row)` for every cell of `grid` that comes within
    /// `margin` of the segment (each cell once), clipped to the grid.
    static func forEachCell(of segment: ZoneIndexBuilder.Segment, in grid: ZoneIndex.Grid, margin: Double,
                            _ body: (Int, Int) -> Void) {
        let minX = min(segment.x1, segment.x2) - margin, maxX = max(segment.x1, segment.x2) + margin
        let firstColumn = max(0, Int(((minX - grid.minX) / grid.cellWidth).rounded(.down)))
        let lastColumn = min(grid.columns - 1, Int(((maxX - grid.minX) / grid.cellWidth).rounded(.down)))
        guard firstColumn <= lastColumn else { return }
        for column in firstColumn...lastColumn {
            let left = max(minX, grid.minX + Double(column) * grid.cellWidth - margin)
            let right = min(maxX, grid.minX + Double(column + 1) * grid.cellWidth + margin)
            let (low, high) = yRange(of: segment, from: left, to: right)
            let firstRow = max(0, Int(((low - margin - grid.minY) / grid.cellHeight).rounded(.down)))
            let lastRow = min(grid.rows - 1, Int(((high + margin - grid.minY) / grid.cellHeight).rounded(.down)))
            guard firstRow <= lastRow else { continue }
            for row in firstRow...lastRow { body(column, row) }
        }
    }

    /// The range of y the segment takes while x is in `left...right`.
    private static func yRange(of s: ZoneIndexBuilder.Segment, from left: Double, to right: Double) -> (Double, Double) {
        let dx = s.x2 - s.x1
        if abs(dx) < 1e-300 { return (min(s.y1, s.y2), max(s.y1, s.y2)) }
        let t1 = min(1, max(0, (left - s.x1) / dx))
        let t2 = min(1, max(0, (right - s.x1) / dx))
        let ya = s.y1 + t1 * (s.y2 - s.y1), yb = s.y1 + t2 * (s.y2 - s.y1)
        return (min(ya, yb), max(ya, yb))
    }
}

/// Segments bucketed by the grid rows their y-range spans, to find the
/// crossings of a horizontal line quickly.
struct RowBuckets {
    private var buckets: [[Int32]]
    private let grid: ZoneIndex.Grid

    init(segments: [ZoneIndexBuilder.Segment], grid: ZoneIndex.Grid) {
        self.grid = grid
        var buckets = [[Int32]](repeating: [], count: grid.rows)
        for (index, segment) in segments.enumerated() where segment.y1 != segment.y2 {
            let low = min(segment.y1, segment.y2), high = max(segment.y1, segment.y2)
            let first = max(0, Int(((low - grid.minY) / grid.cellHeight).rounded(.down)) - 1)
            let last = min(grid.rows - 1, Int(((high - grid.minY) / grid.cellHeight).rounded(.down)) + 1)
            guard first <= last else { continue }
            for row in first...last { buckets[row].append(Int32(index)) }
        }
        self.buckets = buckets
    }

    /// The crossings of the line at `y` (inside `row`) by segments, sorted west to east.
    ///
    /// Half-open rule: a segment crosses when exactly one endpoint is above
    /// the line, so a vertex on the line is counted once per ring.
    func crossings(row: Int, y: Double, segments: [ZoneIndexBuilder.Segment]) -> [(x: Double, zone: Int32)] {
        var result: [(x: Double, zone: Int32)] = []
        for index in buckets[row] {
            let s = segments[Int(index)]
            guard (s.y1 > y) != (s.y2 > y) else { continue }
            let x = s.x1 + (y - s.y1) * (s.x2 - s.x1) / (s.y2 - s.y1)
            result.append((x, s.zone))
        }
        result.sort { $0.x < $1.x }
        return result
    }
}

/// A west-to-east sweep along one line, keeping the even-odd parity of
/// every zone's crossings.
struct ParitySweep {
    private var crossings: [(x: Double, zone: Int32)] = []
    private var next = 0
    private var odd: [Bool]
    /// The zones with odd parity (those covering the current point, away from borders).
    private(set) var oddZones: [Int] = []

    init(zoneCount: Int) {
        odd = [Bool](repeating: false, count: zoneCount)
    }

    mutating func reset(crossings: [(x: Double, zone: Int32)]) {
        self.crossings = crossings
        next = 0
        for zone in oddZones { odd[zone] = false }
        oddZones.removeAll(keepingCapacity: true)
    }

    /// Applies every crossing west of `x`.
    mutating func advance(to x: Double) {
        while next < crossings.count, crossings[next].x < x {
            let zone = Int(crossings[next].zone)
            odd[zone].toggle()
            if odd[zone] {
                oddZones.append(zone)
            } else if let index = oddZones.firstIndex(of: zone) {
                oddZones.remove(at: index)
            }
            next += 1
        }
    }

    /// The resolved cell entry at the current point: winner position + 1, or 0 for outside.
    var winnerEntry: UInt32 {
        guard let winner = BorderRule.winner(amongCovering: oddZones) else { return 0 }
        return UInt32(winner + 1)
    }
}
