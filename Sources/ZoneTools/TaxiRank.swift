import GeoKit
import JSONKit
import Zones

/// A site a Voronoi zone is built around: a taxi rank, with an id and a name.
public struct TaxiRank: Sendable, Equatable {
    public let id: String
    public let name: String
    public let position: Coordinate

    /// Creates a rank.
    public init(id: String, name: String, position: Coordinate) {
        self.id = id
        self.name = name
        self.position = position
    }

    /// The Point features of a GeoJSON FeatureCollection (e.g. OSM
    /// `amenity=taxi` nodes). The id is the feature id, else `properties.id`;
    /// the name is `properties.name`, else `ref`, else `addr:street`, else the id.
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` naming each feature
    ///   that is not a point with an id and a position in range.
    public static func read(_ file: GeoJSONFile) throws(ZoneToolError) -> [TaxiRank] {
        var ranks: [TaxiRank] = []
        var problems: [ZoneProblem] = []
        for (index, feature) in try file.features().enumerated() {
            let subject = GeoJSONFile.subject(of: feature, index: index, idProperty: nil)
            guard feature["geometry"]?["type"] == .string("Point"),
                  case .array(let numbers)? = feature["geometry"]?["coordinates"], numbers.count >= 2,
                  case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1] else {
                problems.append(ZoneProblem(subject: subject, message: "not a Point feature with [longitude, latitude]"))
                continue
            }
            let position = Coordinate(longitude: longitude, latitude: latitude)
            guard position.isInRange else {
                problems.append(ZoneProblem(subject: subject, message: "position \(position) is out of range"))
                continue
            }
            guard !subject.hasPrefix("#") else {
                problems.append(ZoneProblem(subject: subject, message: "missing id: no feature id or properties.id"))
                continue
            }
            let properties = feature["properties"]
            let name = ["name", "ref", "addr:street"].lazy.compactMap { properties?[$0]?.scalarText }.first ?? subject
            ranks.append(TaxiRank(id: subject, name: name, position: position))
        }
        if ranks.isEmpty && problems.isEmpty {
            problems.append(ZoneProblem(subject: "file", message: "no taxi ranks"))
        }
        if !problems.isEmpty { throw .invalidData(path: file.path, problems: problems) }
        return ranks
    }
}
