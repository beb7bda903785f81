import GeoKit

/// Classifies the cells of a ``ZoneIndex``.
///
/// 1. Every border segment marks the cells it comes within `margin` of
///    (a conservative rasterisation): those are border cells.
/// 2. For every horizontal line through cell centres, the crossings of all
///    segments with the line are sorted and swept from west to east, keeping
///    for every zone the parity of crossings (even-odd rule). At the centre
///    of a cell that no segment comes near, the zones with odd parity are
///    exactly the zones covering the whole cell: the winner by the border
///    rule is stored.
/// 3. Border cells get 8 × 8 sub-cells, classified the same way. A sub-cell
///    that a segment comes near stores its candidate zones: those with a
///    segment near it, plus those whose parity is odd at its centre (which
///    cover it wholly, having no segment near it). GEOS decides among them
///    at lookup time.
///
/// Exactness: parity is trusted only at points farther than `margin` from
/// every segment, where floating-point error (about 1e-13 degrees) cannot
/// flip it; everything nearer goes to GEOS.
struct ZoneIndexBuilder {
    /// Result tables, as ``ZoneIndex`` stores them.
    struct Output {
        var grid: ZoneIndex.Grid
        var topCells: [UInt32]
        var subCells: [UInt32]
        var candidateLists: [UInt32]
    }

    /// A border segment of zone `zone` (position in the zone set).
    struct Segment {
        var x1, y1, x2, y2: Double
        var zone: Int32
    }

    static let margin = 1e-9
    let zoneCount: Int
    let segments: [Segment]
    let grid: ZoneIndex.Grid

    init(zones: [Zone], targetCells: Int) {
        zoneCount = zones.count
        var segments: [Segment] = []
        for (position, zone) in zones.enumerated() {
            for ring in zone.geometry.polygonRings where ring.count > 1 {
                for index in 0..<(ring.count - 1) {
                    let a = ring[index], b = ring[index + 1]
                    segments.append(Segment(x1: a.longitude, y1: a.latitude, x2: b.longitude, y2: b.latitude,
                                            zone: Int32(position)))
                }
            }
        }
        self.segments = segments
        let bounds = (zones.dropFirst().reduce(zones.first?.boundingBox) { $0?.union($1.boundingBox) }
            ?? BoundingBox(minX: 0, minY: 0, maxX: 1, maxY: 1)).expanded(by: 1e-6)
        let cellSize = max(1e-6, (bounds.width * bounds.height / Double(max(1, targetCells))).squareRoot())
        let columns = max(1, Int((bounds.width / cellSize).rounded(.up)))
        let rows = max(1, Int((bounds.height / cellSize).rounded(.up)))
        grid = ZoneIndex.Grid(minX: bounds.minX, minY: bounds.minY,
                              cellWidth: bounds.width / Double(columns), cellHeight: bounds.height / Double(rows),
                              columns: columns, rows: rows)
    }

    func build() -> Output {
        let side = ZoneIndex.subdivisions
        let cellSegments = CellSegments(segments: segments, grid: grid, margin: ZoneIndexBuilder.margin)
        let rowSegments = RowBuckets(segments: segments, grid: grid)
        var topCells = [UInt32](repeating: 0, count: grid.columns * grid.rows)
        var subCells: [UInt32] = []
        var lists = CandidateLists()
        var sweeps = (0..<side).map { _ in ParitySweep(zoneCount: zoneCount) }

        for row in 0..<grid.rows {
            let centreY = grid.minY + (Double(row) + 0.5) * grid.cellHeight
            var sweep = ParitySweep(zoneCount: zoneCount)
            sweep.reset(crossings: rowSegments.crossings(row: row, y: centreY, segments: segments))
            let subHeight = grid.cellHeight / Double(side)
            let rowMinY = grid.minY + Double(row) * grid.cellHeight
            var subSweepsReady = false
            for column in 0..<grid.columns {
                let cellIndex = row * grid.columns + column
                let centreX = grid.minX + (Double(column) + 0.5) * grid.cellWidth
                sweep.advance(to: centreX)
                let nearby = cellSegments.segments(inCell: cellIndex)
                if nearby.isEmpty {
                    topCells[cellIndex] = sweep.winnerEntry
                    continue
                }
                if !subSweepsReady {
                    for line in 0..<side {
                        let y = rowMinY + (Double(line) + 0.5) * subHeight
                        sweeps[line].reset(crossings: rowSegments.crossings(row: row, y: y, segments: segments))
                    }
                    subSweepsReady = true
                }
                let cellMinX = grid.minX + Double(column) * grid.cellWidth
                let masks = subCellMasks(nearby, cellMinX: cellMinX, cellMinY: rowMinY)
                let block = subCells.count / (side * side)
                for subRow in 0..<side {
                    for subColumn in 0..<side {
                        let x = cellMinX + (Double(subColumn) + 0.5) * grid.cellWidth / Double(side)
                        sweeps[subRow].advance(to: x)
                        let bit = UInt64(1) << UInt64(subRow * side + subColumn)
                        let edgeZones = masks.filter { $0.mask & bit != 0 }.map { Int($0.zone) }
                        if edgeZones.isEmpty {
                            subCells.append(sweeps[subRow].winnerEntry)
                        } else {
                            let candidates = Set(edgeZones).union(sweeps[subRow].oddZones).sorted()
                            subCells.append(ZoneIndex.tagCandidates | lists.offset(for: candidates))
                        }
                    }
                }
                topCells[cellIndex] = ZoneIndex.tagSubgrid | UInt32(block)
            }
        }
        return Output(grid: grid, topCells: topCells, subCells: subCells, candidateLists: lists.storage)
    }

    /// For each zone with segments near a border cell, the sub-cells (bits of
    /// a row-major 8 × 8 mask) that its segments come within `margin` of.
    private func subCellMasks(_ nearby: ArraySlice<Int32>, cellMinX: Double, cellMinY: Double) -> [(zone: Int32, mask: UInt64)] {
        let side = ZoneIndex.subdivisions
        let subGrid = ZoneIndex.Grid(minX: cellMinX, minY: cellMinY,
                                     cellWidth: grid.cellWidth / Double(side), cellHeight: grid.cellHeight / Double(side),
                                     columns: side, rows: side)
        var masks: [(zone: Int32, mask: UInt64)] = []
        for segmentIndex in nearby {
            let segment = segments[Int(segmentIndex)]
            var mask: UInt64 = 0
            SegmentRaster.forEachCell(of: segment, in: subGrid, margin: ZoneIndexBuilder.margin) { column, row in
                mask |= UInt64(1) << UInt64(row * side + column)
            }
            if let existing = masks.firstIndex(where: { $0.zone == segment.zone }) {
                masks[existing].mask |= mask
            } else {
                masks.append((segment.zone, mask))
            }
        }
        return masks
    }
}

/// Interned candidate lists: `[count, zone, zone, ...]` runs in one array.
struct CandidateLists {
    private(set) var storage: [UInt32] = []
    private var offsets: [[Int]: UInt32] = [:]

    mutating func offset(for zones: [Int]) -> UInt32 {
        if let known = offsets[zones] { return known }
        let offset = UInt32(storage.count)
        storage.append(UInt32(zones.count))
        storage += zones.map { UInt32($0) }
        offsets[zones] = offset
        return offset
    }
}
