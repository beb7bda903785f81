import GeoKit

/// The fast point-to-zone lookup (SPEC Z2): answers exactly what GEOS answers
/// under the ``BorderRule``, mostly without calling GEOS.
///
/// The zone set's bounding box is cut into a grid; a cell that touches a
/// zone border is cut again into 8 × 8 sub-cells. A cell or sub-cell that no
/// border comes near (with a safety margin far above floating-point error)
/// lies wholly inside one set of zones, found when the index is built, so it
/// answers with one or two array reads. Only points in a sub-cell that a
/// border crosses are tested with GEOS's prepared `covers`, and only against
/// the few zones that can contain them. See ``ZoneIndexBuilder`` for how the
/// cells are classified.
///
/// Immutable once built and safe to share between threads.
public final class ZoneIndex: @unchecked Sendable {
    /// The zones the index answers for.
    public let zoneSet: ZoneSet
    /// The zones' territories under the border rule, for history queries;
    /// worked out as they are asked for, and dropped with the index.
    public let territories: ZoneTerritories
    let prepared: [PreparedGeometry]
    let grid: Grid
    let topCells: [UInt32]
    let subCells: [UInt32]
    let candidateLists: [UInt32]

    /// Sub-cells per side of a border cell.
    static let subdivisions = 8
    /// Entry tags, in the top two bits of a cell entry.
    static let tagResolved: UInt32 = 0
    static let tagSubgrid: UInt32 = 1 << 30
    static let tagCandidates: UInt32 = 2 << 30
    static let payloadMask: UInt32 = (1 << 30) - 1

    /// The geometry of the top-level grid.
    struct Grid {
        var minX: Double
        var minY: Double
        var cellWidth: Double
        var cellHeight: Double
        var columns: Int
        var rows: Int
    }

    /// Builds the index for `zoneSet`.
    /// - Parameter targetCells: about how many top-level cells to use; more
    ///   cells cost memory and build time and send fewer points to GEOS.
    public init(zoneSet: ZoneSet, targetCells: Int = 1 << 20) throws {
        self.zoneSet = zoneSet
        self.territories = ZoneTerritories(zoneSet: zoneSet)
        self.prepared = try zoneSet.zones.map { try PreparedGeometry($0.geometry) }
        let built = ZoneIndexBuilder(zones: zoneSet.zones, targetCells: targetCells).build()
        self.grid = built.grid
        self.topCells = built.topCells
        self.subCells = built.subCells
        self.candidateLists = built.candidateLists
    }

    /// The zone at `coordinate`, or nil when outside every zone.
    public func zone(at coordinate: Coordinate) -> Zone? {
        zonePosition(at: coordinate).map { zoneSet.zones[$0] }
    }

    /// The position in ``ZoneSet/zones`` of the zone at `coordinate`, or nil when outside.
    public func zonePosition(at coordinate: Coordinate) -> Int? {
        let fx = (coordinate.longitude - grid.minX) / grid.cellWidth
        let fy = (coordinate.latitude - grid.minY) / grid.cellHeight
        guard fx >= 0, fy >= 0, fx < Double(grid.columns), fy < Double(grid.rows) else { return nil }
        let column = Int(fx), row = Int(fy)
        var entry = topCells[row &* grid.columns &+ column]
        if entry & ~ZoneIndex.payloadMask == ZoneIndex.tagSubgrid {
            let side = ZoneIndex.subdivisions
            let subColumn = min(side - 1, Int((fx - Double(column)) * Double(side)))
            let subRow = min(side - 1, Int((fy - Double(row)) * Double(side)))
            let block = Int(entry & ZoneIndex.payloadMask)
            entry = subCells[block &* (side &* side) &+ subRow &* side &+ subColumn]
        }
        if entry & ~ZoneIndex.payloadMask == ZoneIndex.tagCandidates {
            return firstCovering(coordinate, listAt: Int(entry & ZoneIndex.payloadMask))
        }
        return entry == 0 ? nil : Int(entry) - 1
    }

    private func firstCovering(_ coordinate: Coordinate, listAt offset: Int) -> Int? {
        let count = Int(candidateLists[offset])
        for index in 1...count {
            let position = Int(candidateLists[offset + index])
            if prepared[position].covers(coordinate) { return position }
        }
        return nil
    }

    /// The reference answer: every zone tested with GEOS, the border rule applied.
    ///
    /// Slow (all zones are tested); for tests and for checking the index.
    public func bruteForceZonePosition(at coordinate: Coordinate) -> Int? {
        prepared.indices.first { prepared[$0].covers(coordinate) }
    }

    /// Bytes held by the index's own tables (GEOS's prepared geometries not included).
    public var tableBytes: Int {
        (topCells.count + subCells.count + candidateLists.count) * MemoryLayout<UInt32>.stride
    }

    /// How the grid was cut, for reports: top cells, border cells, border sub-cells (GEOS-checked).
    public var statistics: (topCells: Int, borderCells: Int, geosSubCells: Int) {
        let side = ZoneIndex.subdivisions
        let geos = subCells.reduce(0) { $0 + ($1 & ~ZoneIndex.payloadMask == ZoneIndex.tagCandidates ? 1 : 0) }
            + topCells.reduce(0) { $0 + ($1 & ~ZoneIndex.payloadMask == ZoneIndex.tagCandidates ? 1 : 0) }
        return (topCells.count, subCells.count / (side * side), geos)
    }
}
