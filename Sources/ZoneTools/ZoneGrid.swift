import Foundation
import GeoKit

/// `mytaxi zones grid --boundary FILE --cell METRES`: a zone set of square
/// cells over a service area, each clipped to the boundary.
///
/// Cells are squares of the given side on a local projection in metres,
/// counted from the south-west corner of the boundary's bounding box: the
/// cell in row 3 (from the south) and column 7 (from the west) has the id
/// `r3c7`, so the same boundary and cell size give the same ids.
public enum ZoneGrid {
    /// The cells covering some of `boundary`, row by row from the south-west.
    /// - Parameter progress: told after each row, with the rows done and in all.
    public static func cells(boundary: Geometry, cellMetres: Double,
                             progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }) throws -> [GeneratedZone] {
        guard let center = boundary.boundingBox?.center else { return [] }
        let projection = try LocalProjection(center: center)
        let area = try projection.project(boundary)
        guard let box = area.boundingBox else { return [] }
        let prepared = try PreparedGeometry(area)
        let columns = Int((box.width / cellMetres).rounded(.up))
        let rows = Int((box.height / cellMetres).rounded(.up))
        var zones: [GeneratedZone] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let minX = box.minX + Double(column) * cellMetres, minY = box.minY + Double(row) * cellMetres
                let square = try Geometry.rectangle(BoundingBox(minX: minX, minY: minY,
                                                                maxX: minX + cellMetres, maxY: minY + cellMetres))
                guard prepared.intersects(square) else { continue }
                let cell: Geometry? = try prepared.containsProperly(square) ? square : area.intersection(square).polygonal()
                guard let cell, cell.area > 0 else { continue }
                zones.append(GeneratedZone(id: "r\(row)c\(column)", name: "Row \(row), column \(column)",
                                           geometry: try projection.unproject(cell)))
            }
            progress(row + 1, rows)
        }
        return zones
    }
}
