import COsmium
import Foundation
import GeoKit

/// One OpenStreetMap node or way tagged `name` or `addr:housenumber`, as read
/// from an extract: the raw material of a ``PlaceCatalog``.
public struct NamedFeature: Sendable, Equatable {
    /// Whether the feature was a node or a way.
    public enum Kind: Sendable, Equatable {
        case node, way
    }

    /// Node or way.
    public var kind: Kind
    /// Its OSM id.
    public var id: Int64
    /// All its tags.
    public var tags: [String: String]
    /// The node's location, or the way's nodes in order.
    public var points: [Coordinate]

    /// Creates a feature; see the properties.
    public init(kind: Kind, id: Int64, tags: [String: String], points: [Coordinate]) {
        self.kind = kind
        self.id = id
        self.tags = tags
        self.points = points
    }

    /// Reads every named feature of an OpenStreetMap file with libosmium
    /// (`.osm.pbf` or `.osm`, by the file name).
    /// - Throws: ``PlaceError/unreadable(path:reason:)`` when the file is missing or not OSM data.
    public static func read(contentsOf path: String) throws(PlaceError) -> [NamedFeature] {
        var message: UnsafeMutablePointer<CChar>?
        guard let raw = cosm_read_features(path, &message) else {
            let reason = (message.map { String(cString: $0) } ?? "unknown error").replacingOccurrences(of: " for '\(path)'", with: "")
            cosm_free_error(message)
            throw .unreadable(path: path, reason: reason)
        }
        defer { cosm_free_features(raw) }
        let view = raw.pointee
        var features: [NamedFeature] = []
        features.reserveCapacity(view.count)
        for index in 0..<view.count {
            var tags: [String: String] = [:]
            for slot in view.tag_start[index]..<view.tag_start[index + 1] {
                tags[String(cString: view.tags[slot].key)] = String(cString: view.tags[slot].value)
            }
            let points = (view.point_start[index]..<view.point_start[index + 1]).map {
                Coordinate(longitude: view.longitudes[$0], latitude: view.latitudes[$0])
            }
            features.append(NamedFeature(kind: view.types[index] == CChar(UInt8(ascii: "n")) ? .node : .way,
                                         id: view.ids[index], tags: tags, points: points))
        }
        return features
    }
}
