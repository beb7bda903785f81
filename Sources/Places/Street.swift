import GeoKit

/// A named street: the lines of every named highway way that bears its name,
/// for the search to answer with its point nearest to the caller and for the
/// reverse search to name the street a point is on and its cross street.
public struct Street: Sendable, Equatable {
    /// The street's name as the map spells it (`West 42nd Street`).
    public var name: String
    /// Each way's line, in order of its nodes.
    public var lines: [[Coordinate]]

    /// Creates a street from its name and lines.
    public init(name: String, lines: [[Coordinate]]) {
        self.name = name
        self.lines = lines
    }

    /// The street's vertex nearest `point`: where a taxi asked for "Broadway"
    /// near the caller should go.
    public func vertex(nearest point: Coordinate) -> Coordinate {
        var best = lines[0][0]
        var bestDistance = Double.infinity
        for line in lines {
            for vertex in line {
                let distance = PlanarDistance.squaredMetres(point, vertex)
                if distance < bestDistance {
                    bestDistance = distance
                    best = vertex
                }
            }
        }
        return best
    }

    /// A vertex in the middle of the street's longest line: its point when
    /// nobody says where they are.
    public var middle: Coordinate {
        let longest = lines.max { $0.count < $1.count } ?? []
        return longest[longest.count / 2]
    }
}
