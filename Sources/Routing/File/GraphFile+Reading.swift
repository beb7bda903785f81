import Foundation
import GeoKit

extension GraphFile {
    /// Loads a graph file written by ``write(graph:profile:extraSections:to:)``.
    ///
    /// The file is read in one go; each array is copied once. Sizes and the
    /// CSR invariants are checked (edge heads within the nodes, first-edge
    /// offsets rising to the edge count, known road classes) so that a
    /// damaged file fails here, by name, not later in a query.
    /// - Throws: ``GraphFileError`` naming the problem and the section.
    public static func read(from url: URL) throws(GraphFileError) -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw .io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        let sections = try data.withUnsafeBytes { raw in
            Result { () throws(GraphFileError) in try splitSections(raw) }
        }.get()
        func section(_ name: String) throws(GraphFileError) -> [UInt8] {
            guard let payload = sections[name] else { throw .missingSection(name) }
            return payload
        }

        guard let profile = String(validating: try section(Core.profile), as: UTF8.self) else {
            throw .inconsistentSection(Core.profile, detail: "not UTF-8")
        }
        let flatCoordinates = try array(of: Double.self, from: try section(Core.coordinates), section: Core.coordinates)
        guard flatCoordinates.count % 2 == 0 else {
            throw .inconsistentSection(Core.coordinates, detail: "odd number of values")
        }
        let coordinates = stride(from: 0, to: flatCoordinates.count, by: 2).map {
            Coordinate(longitude: flatCoordinates[$0], latitude: flatCoordinates[$0 + 1])
        }
        let firstEdge = try array(of: UInt32.self, from: try section(Core.firstEdge), section: Core.firstEdge)
        let edgeHead = try array(of: UInt32.self, from: try section(Core.edgeHead), section: Core.edgeHead)
        let durations = try array(of: UInt32.self, from: try section(Core.duration), section: Core.duration)
        let lengths = try array(of: Float.self, from: try section(Core.length), section: Core.length)
        let classBytes = try section(Core.roadClass)

        let nodeCount = coordinates.count, edgeCount = edgeHead.count
        guard firstEdge.count == nodeCount + 1 else {
            throw .inconsistentSection(Core.firstEdge, detail: "\(firstEdge.count) entries for \(nodeCount) nodes")
        }
        for (name, count) in [(Core.duration, durations.count), (Core.length, lengths.count),
                              (Core.roadClass, classBytes.count)] where count != edgeCount {
            throw .inconsistentSection(name, detail: "\(count) entries for \(edgeCount) edges")
        }
        guard firstEdge.first == 0, firstEdge.last == UInt32(edgeCount),
              zip(firstEdge, firstEdge.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw .inconsistentSection(Core.firstEdge, detail: "offsets must rise from 0 to the edge count \(edgeCount)")
        }
        if let bad = edgeHead.first(where: { Int($0) >= nodeCount }) {
            throw .inconsistentSection(Core.edgeHead, detail: "head \(bad) is not one of the \(nodeCount) nodes")
        }
        var roadClasses: [RoadClass] = []
        roadClasses.reserveCapacity(edgeCount)
        for byte in classBytes {
            guard let roadClass = RoadClass(rawValue: byte) else {
                throw .inconsistentSection(Core.roadClass, detail: "unknown road class \(byte)")
            }
            roadClasses.append(roadClass)
        }

        let graph = RoadGraph(coordinates: coordinates, firstEdge: firstEdge, edgeHead: edgeHead,
                              edgeDurationMs: durations, edgeLengthMetres: lengths, edgeRoadClass: roadClasses)
        return Contents(graph: graph, profileName: profile,
                        extraSections: sections.filter { !Core.all.contains($0.key) })
    }

    /// The sections of a whole file by name, after checking the file header.
    private static func splitSections(_ raw: UnsafeRawBufferPointer) throws(GraphFileError) -> [String: [UInt8]] {
        guard raw.count >= 16 else {
            if raw.count < 8 || Array(raw[0..<8]) != magic { throw .badMagic }
            throw .truncatedHeader
        }
        guard Array(raw[0..<8]) == magic else { throw .badMagic }
        let version = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard version == formatVersion else { throw .unsupportedVersion(found: version, supported: formatVersion) }
        let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))

        var sections: [String: [UInt8]] = [:]
        var offset = 16
        for _ in 0..<count {
            guard raw.count - offset >= 16 else { throw .truncatedHeader }
            let nameBytes = raw[offset..<offset + 8].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let length = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            offset += 16
            guard length <= UInt64(raw.count - offset) else { throw .truncatedSection(name) }
            guard sections[name] == nil else { throw .duplicateSection(name) }
            sections[name] = Array(raw[offset..<offset + Int(length)])
            offset += min(Int(length) + padding(Int(length)), raw.count - offset)
        }
        return sections
    }
}
