import GeoKit

/// Checks one ring of a zone polygon and repairs what can safely be
/// repaired: repeated consecutive positions are dropped and the winding is
/// set to RFC 7946's (exterior counter-clockwise, holes clockwise).
/// Topology (self-intersections, holes outside shells) is left to GEOS.
public struct RingCheck {
    /// The ring after repair; meaningful only when `errors` is empty.
    public private(set) var ring: [Coordinate]
    /// Problems that reject the file.
    public private(set) var errors: [String] = []
    /// Repeated consecutive positions dropped.
    public private(set) var removedRepeats = 0
    /// True when the winding was reversed.
    public private(set) var reversed = false

    /// Checks `positions` as an exterior ring (`isExterior`) or a hole, named `label` in messages.
    public init(_ positions: [Coordinate], label: String, isExterior: Bool) {
        ring = positions
        if let index = positions.firstIndex(where: { !$0.isInRange }) {
            errors.append("\(label): position \(index) (\(positions[index])) is out of range "
                + "(longitude -180..180, latitude -90..90)")
            return
        }
        guard positions.count >= 4 else {
            errors.append("\(label): too few points (\(positions.count); a closed ring needs at least 4 positions)")
            return
        }
        guard positions.first == positions.last else {
            errors.append("\(label): ring is not closed (first position \(positions[0]) "
                + "differs from last \(positions[positions.count - 1]))")
            return
        }
        var deduplicated: [Coordinate] = [positions[0]]
        deduplicated.reserveCapacity(positions.count)
        for position in positions.dropFirst() where position != deduplicated[deduplicated.count - 1] {
            deduplicated.append(position)
        }
        removedRepeats = positions.count - deduplicated.count
        guard deduplicated.count >= 4 else {
            errors.append("\(label): too few distinct points (\(deduplicated.count - 1); a ring needs at least 3)")
            return
        }
        let area = RingCheck.signedArea(deduplicated)
        if area != 0, (area > 0) != isExterior {
            deduplicated.reverse()
            reversed = true
        }
        ring = deduplicated
    }

    /// Twice the signed area by the shoelace formula: positive when counter-clockwise.
    static func signedArea(_ ring: [Coordinate]) -> Double {
        guard let origin = ring.first else { return 0 }
        var sum = 0.0
        for index in 0..<(ring.count - 1) {
            let a = ring[index], b = ring[index + 1]
            sum += (a.longitude - origin.longitude) * (b.latitude - origin.latitude)
                - (b.longitude - origin.longitude) * (a.latitude - origin.latitude)
        }
        return sum
    }
}
