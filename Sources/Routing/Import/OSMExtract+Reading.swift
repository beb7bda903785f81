import COsmium
import Foundation
import GeoKit

extension OSMExtract {
    /// Reads the highway ways, their nodes and the turn restrictions of an
    /// OpenStreetMap file with libosmium.
    ///
    /// The format follows the file name: `.osm.pbf`, or `.osm` XML (handy for
    /// hand-made test maps). The file is read twice (ways and relations, then
    /// only the nodes they use), so memory follows the road network's size.
    /// Ways referencing nodes the file lacks are split there (see
    /// ``missingNodeReferences``).
    /// - Parameter path: the file to read.
    /// - Throws: ``OSMImportError/unreadable(path:reason:)`` when the file is
    ///   missing or is not OSM data.
    public init(contentsOf path: String) throws(OSMImportError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let extract = cosm_read(path, &message) else {
            // libosmium names the file in its message; the error names it once already.
            let reason = (message.map { String(cString: $0) } ?? "unknown error").replacingOccurrences(of: " for '\(path)'", with: "")
            cosm_free_error(message)
            throw .unreadable(path: path, reason: reason)
        }
        defer { cosm_free(extract) }
        self = Self.copy(extract.pointee)
    }

    private static func copy(_ raw: cosm_extract) -> OSMExtract {
        let nodeCount = raw.node_count
        let nodeIDs = Array(UnsafeBufferPointer(start: raw.node_ids, count: nodeCount))
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(nodeCount)
        var highwayTags: [Int: String] = [:]
        for index in 0..<nodeCount {
            coordinates.append(Coordinate(longitude: raw.node_longitudes[index], latitude: raw.node_latitudes[index]))
            if let value = raw.node_highway[index] { highwayTags[index] = String(cString: value) }
        }

        var ways: [OSMWay] = []
        ways.reserveCapacity(raw.way_count)
        var waysWithMissingNodes = 0
        for index in 0..<raw.way_count {
            let tags = tagDictionary(raw.way_tags, from: raw.way_tag_start[index], to: raw.way_tag_start[index + 1])
            var piece: [Int32] = []
            var sawMissing = false
            for ref in raw.way_ref_start[index]..<raw.way_ref_start[index + 1] {
                let node = raw.way_ref_node[ref]
                if node >= 0 {
                    piece.append(node)
                    continue
                }
                sawMissing = true
                if piece.count >= 2 { ways.append(OSMWay(id: raw.way_ids[index], nodes: piece, tags: tags)) }
                piece.removeAll(keepingCapacity: true)
            }
            if piece.count >= 2 { ways.append(OSMWay(id: raw.way_ids[index], nodes: piece, tags: tags)) }
            if sawMissing { waysWithMissingNodes += 1 }
        }

        var relations: [OSMRelation] = []
        relations.reserveCapacity(raw.relation_count)
        for index in 0..<raw.relation_count {
            var members: [OSMRelation.Member] = []
            for slot in raw.relation_member_start[index]..<raw.relation_member_start[index + 1] {
                let member = raw.relation_members[slot]
                let kind: OSMRelation.MemberKind = switch UInt8(bitPattern: member.type) {
                case UInt8(ascii: "n"): .node
                case UInt8(ascii: "w"): .way
                default: .relation
                }
                members.append(OSMRelation.Member(kind: kind, ref: member.ref, role: String(cString: member.role)))
            }
            let tags = tagDictionary(raw.relation_tags, from: raw.relation_tag_start[index],
                                     to: raw.relation_tag_start[index + 1])
            relations.append(OSMRelation(id: raw.relation_ids[index], members: members, tags: tags))
        }

        return OSMExtract(nodeIDs: nodeIDs, nodeCoordinates: coordinates, nodeHighwayTags: highwayTags, ways: ways, restrictions: relations,
                          missingNodeReferences: raw.missing_node_refs, waysWithMissingNodes: waysWithMissingNodes)
    }

    private static func tagDictionary(_ tags: UnsafePointer<cosm_tag>?, from start: Int, to end: Int) -> [String: String] {
        guard let tags, start < end else { return [:] }
        var dictionary: [String: String] = [:]
        dictionary.reserveCapacity(end - start)
        for slot in start..<end {
            dictionary[String(cString: tags[slot].key)] = String(cString: tags[slot].value)
        }
        return dictionary
    }
}
