import Foundation
import GeoKit
import JSONKit

/// A zone set as loaded, with the repairs made on the way.
public struct LoadedZones: Sendable {
    public var zoneSet: ZoneSet
    /// Repairs made (ring winding, repeated points) and other warnings.
    public var warnings: [ZoneProblem]
}

/// Reads a zone file (a GeoJSON FeatureCollection of Polygon/MultiPolygon
/// features, RFC 7946), checks every rule of SPEC Z3 and builds the zones.
///
/// All or nothing: when any feature has a problem the whole file is
/// rejected with every problem listed, each naming its feature.
public enum ZoneFileLoader {
    /// Loads and checks the file at `path`.
    /// - Throws: ``ZoneFileError``: `unreadable`, `notJSON`, or `invalid` with every problem.
    public static func load(path: String, options: ZoneFileOptions = ZoneFileOptions()) throws(ZoneFileError) -> LoadedZones {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try load(data: data, options: options)
    }

    /// Loads and checks a zone file's bytes.
    public static func load(data: Data, options: ZoneFileOptions = ZoneFileOptions()) throws(ZoneFileError) -> LoadedZones {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw .notJSON(error.description)
        }
        return try load(document: document, options: options)
    }

    /// Checks an already parsed GeoJSON document.
    public static func load(document: JSONValue, options: ZoneFileOptions) throws(ZoneFileError) -> LoadedZones {
        var problems: [ZoneProblem] = []
        var warnings: [ZoneProblem] = []
        guard case .string("FeatureCollection")? = document["type"] else {
            let found = document["type"]?.scalarText.map { "type \"\($0)\"" } ?? "no \"type\" member"
            throw .invalid(problems: [ZoneProblem(subject: "file", message:
                "not a GeoJSON FeatureCollection (found \(found))")], warnings: [])
        }
        guard case .array(let features)? = document["features"] else {
            throw .invalid(problems: [ZoneProblem(subject: "file", message:
                "the FeatureCollection has no \"features\" array")], warnings: [])
        }
        if features.isEmpty {
            throw .invalid(problems: [ZoneProblem(subject: "file", message:
                "the FeatureCollection has no features: a zone file needs at least one zone")], warnings: [])
        }

        var zones: [Zone] = []
        var featureIndexById: [ZoneID: [Int]] = [:]
        var unnamed = 0
        for (index, feature) in features.enumerated() {
            let read = FeatureReader(feature: feature, index: index, options: options)
            problems += read.problems
            warnings += read.warnings
            if let id = read.id { featureIndexById[id, default: []].append(index) }
            if read.nameMissing { unnamed += 1 }
            if let zone = read.zone { zones.append(zone) }
        }
        for (id, indexes) in featureIndexById where indexes.count > 1 {
            problems.append(ZoneProblem(subject: id.text, message:
                "duplicate id: features \(indexes.map { "#\($0)" }.joined(separator: ", ")) share it"))
        }
        if unnamed > 0 {
            warnings.append(ZoneProblem(subject: "file", message:
                "\(unnamed) feature(s) have no \"\(options.nameProperty)\" property; their id is used as name "
                    + "(choose another property with --name-property)", severity: .warning))
        }
        let uniqueZones = zones.filter { featureIndexById[$0.id]?.count == 1 }
        problems += OverlapCheck.problems(in: uniqueZones, toleranceSquareMetres: options.overlapToleranceSquareMetres)
        if !problems.isEmpty {
            throw .invalid(problems: problems.sorted(by: ZoneFileLoader.reportOrder), warnings: warnings)
        }
        return LoadedZones(zoneSet: ZoneSet(zones: zones), warnings: warnings)
    }

    /// Problems in a stable order: by subject (zone-id order), file-wide first.
    static func reportOrder(_ lhs: ZoneProblem, _ rhs: ZoneProblem) -> Bool {
        if lhs.subject == rhs.subject { return false }
        if lhs.subject == "file" { return true }
        if rhs.subject == "file" { return false }
        return ZoneID(lhs.subject) < ZoneID(rhs.subject)
    }
}
