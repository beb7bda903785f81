import Foundation
import GeoKit
import JSONKit
import Zones

/// A GeoJSON file read as plain JSON values, for the tools that must see
/// every feature as written, even those the zone loader would refuse.
public struct GeoJSONFile: Sendable {
    /// Where the file was read from, for messages.
    public let path: String
    /// The whole document.
    public let document: JSONValue

    /// Reads and parses the file at `path`.
    /// - Throws: ``ZoneToolError/unreadable(path:reason:)`` or ``ZoneToolError/notJSON(path:reason:)``.
    public init(path: String) throws(ZoneToolError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw .notJSON(path: path, reason: error.description)
        }
        self.path = path
    }

    /// The features of a FeatureCollection document.
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` when the document is not one.
    public func features() throws(ZoneToolError) -> [JSONValue] {
        guard case .string("FeatureCollection")? = document["type"], case .array(let features)? = document["features"] else {
            throw .invalidData(path: path, problems: [ZoneProblem(subject: "file", message:
                "not a GeoJSON FeatureCollection with a \"features\" array")])
        }
        return features
    }

    /// The document with its `features` replaced, every other member kept.
    public func replacingFeatures(_ features: [JSONValue]) -> JSONValue {
        guard case .object(var members) = document else { return .array(features) }
        members["features"] = .array(features)
        return .object(members)
    }

    /// How a feature is named in messages: its id as ``ZoneFileLoader`` reads
    /// it (the `idProperty`, else the feature id, else `properties.id`), or
    /// `#N`, its 0-based position in `features`.
    public static func subject(of feature: JSONValue, index: Int, idProperty: String?) -> String {
        let properties = feature["properties"]
        let id = if let idProperty { properties?[idProperty] } else { feature["id"] ?? properties?["id"] }
        if let text = id?.scalarText, !text.isEmpty { return text }
        return "#\(index)"
    }
}
