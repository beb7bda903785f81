import GeoKit
import JSONKit

/// `mytaxi zones repair`: every feature of a zone file repaired where that
/// is safe (see ``FeatureRepair``), the rest named and left as they were.
public struct ZoneRepair: Sendable {
    /// One entry per feature, in file order.
    public let features: [FeatureRepair]
    /// The file with the repaired features, every other member as read.
    public let document: JSONValue

    /// Repairs the features of `file`, a GeoJSON FeatureCollection.
    /// - Parameter idProperty: the property holding ids (nil: the feature id, then `properties.id`).
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` when the file is not a FeatureCollection.
    public init(file: GeoJSONFile, idProperty: String?) throws(ZoneToolError) {
        let read = try file.features()
        features = read.enumerated().map { FeatureRepair(feature: $1, index: $0, idProperty: idProperty) }
        document = file.replacingFeatures(features.map(\.feature))
    }

    /// The features that were not safe to repair.
    public var leftAsIs: [FeatureRepair] {
        features.filter { if case .leftAsIs = $0.outcome { true } else { false } }
    }

    /// One line per repaired or unrepaired feature (`ID: repaired: ...`,
    /// `ID: not repaired: ...`), then a summary line.
    public var report: [String] {
        var lines: [String] = []
        var repaired = 0
        for feature in features {
            switch feature.outcome {
            case .unchanged: break
            case .repaired(let changes):
                repaired += 1
                lines.append("\(feature.subject): repaired: " + changes.joined(separator: "; "))
            case .leftAsIs(let reason):
                lines.append("\(feature.subject): not repaired: \(reason)")
            }
        }
        let unchanged = features.count - repaired - leftAsIs.count
        lines.append("\(features.count) feature(s): \(repaired) repaired, \(leftAsIs.count) not safe to repair "
            + "(left as they were), \(unchanged) unchanged")
        return lines
    }
}
