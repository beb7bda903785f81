import GeoKit

/// The grids of the reverse search: addresses by cell, street segments by
/// cell, and where each street crosses another.
struct ReverseGrid: Sendable {
    /// Cell size in degrees: about 110 m north–south, so a 3 × 3 block of
    /// cells holds every address within ``ReverseGeocode/addressReachMetres``.
    static let cellDegrees = 0.001

    struct Segment: Sendable {
        var street: Int32
        var from: Coordinate
        var to: Coordinate
    }

    struct Crossing: Sendable {
        var at: Coordinate
        var otherStreet: Int32
    }

    let addressesByCell: [Int64: [Int32]]
    let segmentsByCell: [Int64: [Segment]]
    /// Each street's crossings with other streets (vertices they share).
    let crossings: [[Crossing]]

    init(catalog: PlaceCatalog) {
        var addressesByCell: [Int64: [Int32]] = [:]
        for (index, place) in catalog.places.enumerated() where place.kind == .address {
            addressesByCell[Self.cell(place.coordinate), default: []].append(Int32(index))
        }
        var segmentsByCell: [Int64: [Segment]] = [:]
        var streetsAtVertex: [Coordinate: Set<Int32>] = [:]
        for (index, street) in catalog.streets.enumerated() {
            for line in street.lines {
                for vertex in line { streetsAtVertex[vertex, default: []].insert(Int32(index)) }
                for (from, to) in zip(line, line.dropFirst()) {
                    let segment = Segment(street: Int32(index), from: from, to: to)
                    for cell in Self.cells(from: from, to: to) { segmentsByCell[cell, default: []].append(segment) }
                }
            }
        }
        var crossings = [[Crossing]](repeating: [], count: catalog.streets.count)
        for (vertex, streets) in streetsAtVertex where streets.count > 1 {
            for street in streets {
                for other in streets where other != street {
                    crossings[Int(street)].append(Crossing(at: vertex, otherStreet: other))
                }
            }
        }
        self.addressesByCell = addressesByCell
        self.segmentsByCell = segmentsByCell
        self.crossings = crossings
    }

    static func cell(_ point: Coordinate) -> Int64 {
        cell(column: Int64((point.longitude / cellDegrees).rounded(.down)), row: Int64((point.latitude / cellDegrees).rounded(.down)))
    }

    static func cell(column: Int64, row: Int64) -> Int64 { (row << 32) ^ (column & 0xFFFF_FFFF) }

    /// The cells around `point`, `reach` cells each way.
    static func cells(around point: Coordinate, reach: Int64) -> [Int64] {
        let column = Int64((point.longitude / cellDegrees).rounded(.down)), row = Int64((point.latitude / cellDegrees).rounded(.down))
        var cells: [Int64] = []
        for dy in -reach...reach {
            for dx in -reach...reach { cells.append(cell(column: column + dx, row: row + dy)) }
        }
        return cells
    }

    /// The cells a segment's bounding box covers.
    private static func cells(from: Coordinate, to: Coordinate) -> [Int64] {
        let columns = Int64((min(from.longitude, to.longitude) / cellDegrees).rounded(.down))...Int64((max(from.longitude, to.longitude) / cellDegrees).rounded(.down))
        let rows = Int64((min(from.latitude, to.latitude) / cellDegrees).rounded(.down))...Int64((max(from.latitude, to.latitude) / cellDegrees).rounded(.down))
        return rows.flatMap { row in columns.map { cell(column: $0, row: row) } }
    }
}
