import Foundation
import GeoKit

/// Finds pairs of zones whose areas overlap by more than a tolerance.
enum OverlapCheck {
    /// One problem per overlapping pair, on the zone with the smaller id.
    static func problems(in zones: [Zone], toleranceSquareMetres: Double) -> [ZoneProblem] {
        let order = zones.indices.sorted { zones[$0].boundingBox.minX < zones[$1].boundingBox.minX }
        var problems: [ZoneProblem] = []
        for (rank, first) in order.enumerated() {
            let box = zones[first].boundingBox
            for second in order[(rank + 1)...] {
                let other = zones[second].boundingBox
                if other.minX > box.maxX { break }
                guard box.intersects(other) else { continue }
                let (a, b) = zones[first].id < zones[second].id
                    ? (zones[first], zones[second]) : (zones[second], zones[first])
                guard let overlap = try? a.geometry.intersection(b.geometry), !overlap.isEmpty else { continue }
                let area = squareMetres(of: overlap)
                if area > toleranceSquareMetres {
                    problems.append(ZoneProblem(subject: a.id.text, message:
                        "overlaps zone \(b.id.text) by \(formatArea(area)) (tolerance \(formatArea(toleranceSquareMetres)))"))
                }
            }
        }
        return problems
    }

    /// The area of a small lon/lat geometry in square metres (local scale at its latitude).
    static func squareMetres(of geometry: Geometry) -> Double {
        let degreesArea = geometry.area
        guard degreesArea > 0, let box = geometry.boundingBox else { return 0 }
        let metresPerDegree = Coordinate.earthRadiusMetres * Double.pi / 180
        return degreesArea * metresPerDegree * metresPerDegree * cos(box.center.latitude * Double.pi / 180)
    }

    static func formatArea(_ squareMetres: Double) -> String {
        squareMetres >= 10_000
            ? "\((squareMetres / 10_000 * 100).rounded() / 100) ha"
            : "\((squareMetres * 10).rounded() / 10) m²"
    }
}
