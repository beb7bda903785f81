import Foundation
import GeoKit

extension GraphFile {
    /// Loads a graph file written by ``write(graph:profile:extraSections:to:)``.
    ///
    /// The file is mapped and each array is copied out of it once (no
    /// per-element decoding). Sizes, positions and the CSR invariants are
    /// checked (every node a WGS84 position, edge heads within the nodes,
    /// first-edge offsets rising to the edge count, known road classes) so
    /// that a damaged file fails here, by name, not later in a query or in
    /// the snapper's grid, where a NaN or a position off the Earth trapped.
    /// - Throws: ``GraphFileError`` naming the problem and the section.
    public static func read(from url: URL) throws(GraphFileError) -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw .io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try data.withUnsafeBytes { raw in
            Result { () throws(GraphFileError) in try contents(of: raw) }
        }.get()
    }

    /// Reads a graph file's bytes already in memory, checked as
    /// ``read(from:)`` checks a file (it reads its mapped file with this):
    /// the fuzz target feeds it bytes straight, without a file per input.
    /// - Throws: ``GraphFileError`` naming the problem and the section.
    public static func contents(of raw: UnsafeRawBufferPointer) throws(GraphFileError) -> Contents {
        let sections = try sectionRanges(raw)
        func payload<T: BitwiseCopyable>(_ name: String, as type: T.Type) throws(GraphFileError) -> [T] {
            guard let range = sections[name] else { throw .missingSection(name) }
            return try copy(UnsafeRawBufferPointer(rebasing: raw[range]), as: type, section: name)
        }

        guard let profile = String(validating: try payload(Core.profile, as: UInt8.self), as: UTF8.self) else {
            throw .inconsistentSection(Core.profile, detail: "not UTF-8")
        }
        let flatCoordinates = try payload(Core.coordinates, as: Double.self)
        guard flatCoordinates.count % 2 == 0 else {
            throw .inconsistentSection(Core.coordinates, detail: "odd number of values")
        }
        let nodeCount = flatCoordinates.count / 2
        let coordinates = flatCoordinates.withUnsafeBufferPointer { values in
            [Coordinate](unsafeUninitializedCapacity: nodeCount) { buffer, count in
                for node in 0..<nodeCount {
                    (buffer.baseAddress! + node).initialize(
                        to: Coordinate(longitude: values[2 * node], latitude: values[2 * node + 1]))
                }
                count = nodeCount
            }
        }
        if let node = coordinates.firstIndex(where: { !$0.isInRange }) {
            throw .inconsistentSection(Core.coordinates, detail: "node \(node) at \(coordinates[node]) is not a WGS84 position")
        }
        let firstEdge = try payload(Core.firstEdge, as: UInt32.self)
        let edgeHead = try payload(Core.edgeHead, as: UInt32.self)
        let durations = try payload(Core.duration, as: UInt32.self)
        let lengths = try payload(Core.length, as: Float.self)
        let classBytes = try payload(Core.roadClass, as: UInt8.self)
        let laneBytes = try payload(Core.laneClass, as: UInt8.self)
        let signalBytes = try payload(Core.signalApproach, as: UInt8.self)
        try checkTopology(nodeCount: nodeCount, firstEdge: firstEdge, edgeHead: edgeHead)
        let edgeCount = edgeHead.count
        for (name, count) in [(Core.duration, durations.count), (Core.length, lengths.count),
                              (Core.roadClass, classBytes.count), (Core.laneClass, laneBytes.count),
                              (Core.signalApproach, signalBytes.count)] where count != edgeCount {
            throw .inconsistentSection(name, detail: "\(count) entries for \(edgeCount) edges")
        }
        let roadClasses = try enumValues(RoadClass.self, from: classBytes, section: Core.roadClass, kind: "road class")
        let laneClasses = try enumValues(LaneClass.self, from: laneBytes, section: Core.laneClass, kind: "lane class")
        let signalApproaches = try enumValues(SignalApproach.self, from: signalBytes, section: Core.signalApproach,
                                              kind: "signal approach")

        var extras: [String: [UInt8]] = [:]
        for (name, range) in sections where !Core.all.contains(name) {
            extras[name] = try copy(UnsafeRawBufferPointer(rebasing: raw[range]), as: UInt8.self, section: name)
        }
        let graph = RoadGraph(coordinates: coordinates, firstEdge: firstEdge, edgeHead: edgeHead,
                              edgeDurationMs: durations, edgeLengthMetres: lengths, edgeRoadClass: roadClasses,
                              edgeLaneClass: laneClasses, edgeSignalApproach: signalApproaches)
        return Contents(graph: graph, profileName: profile, extraSections: extras)
    }

    /// Checks the CSR invariants: `nodeCount + 1` offsets rising from 0 to the
    /// edge count, and every head a node.
    private static func checkTopology(nodeCount: Int, firstEdge: [UInt32], edgeHead: [UInt32]) throws(GraphFileError) {
        guard firstEdge.count == nodeCount + 1 else {
            throw .inconsistentSection(Core.firstEdge, detail: "\(firstEdge.count) entries for \(nodeCount) nodes")
        }
        let rising = firstEdge.withUnsafeBufferPointer { offsets in
            offsets[0] == 0 && offsets[nodeCount] == UInt32(edgeHead.count)
                && (0..<nodeCount).allSatisfy { offsets[$0] <= offsets[$0 + 1] }
        }
        guard rising else {
            throw .inconsistentSection(Core.firstEdge, detail: "offsets must rise from 0 to the edge count \(edgeHead.count)")
        }
        let largestHead = edgeHead.withUnsafeBufferPointer { heads in heads.max() }
        if let largestHead, Int(largestHead) >= nodeCount {
            throw .inconsistentSection(Core.edgeHead, detail: "head \(largestHead) is not one of the \(nodeCount) nodes")
        }
    }

    /// Road classes, lane classes or signal approaches from their raw bytes, refusing unknown values.
    private static func enumValues<Value: CaseIterable & RawRepresentable<UInt8>>(
        _ type: Value.Type, from bytes: [UInt8], section: String, kind: String
    ) throws(GraphFileError) -> [Value] where Value.AllCases == [Value] {
        let known = Value.allCases
        if let bad = bytes.withUnsafeBufferPointer({ $0.first { Int($0) >= known.count } }) {
            throw .inconsistentSection(section, detail: "unknown \(kind) \(bad)")
        }
        return bytes.withUnsafeBufferPointer { values in
            [Value](unsafeUninitializedCapacity: values.count) { buffer, count in
                for index in 0..<values.count { (buffer.baseAddress! + index).initialize(to: known[Int(values[index])]) }
                count = values.count
            }
        }
    }

    /// An array of plain values copied from raw bytes.
    static func copy<T: BitwiseCopyable>(_ raw: UnsafeRawBufferPointer, as type: T.Type,
                                         section: String) throws(GraphFileError) -> [T] {
        guard raw.count % MemoryLayout<T>.stride == 0 else {
            throw .inconsistentSection(section, detail: "\(raw.count) bytes is not a whole number of "
                                       + "\(MemoryLayout<T>.stride)-byte values")
        }
        return [T](unsafeUninitializedCapacity: raw.count / MemoryLayout<T>.stride) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: raw)
            count = buffer.count
        }
    }

    /// The payload byte range of each section, after checking the file header.
    private static func sectionRanges(_ raw: UnsafeRawBufferPointer) throws(GraphFileError) -> [String: Range<Int>] {
        guard raw.count >= 16 else {
            if raw.count < 8 || Array(raw[0..<8]) != magic { throw .badMagic }
            throw .truncatedHeader
        }
        guard Array(raw[0..<8]) == magic else { throw .badMagic }
        let version = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard version == formatVersion else { throw .unsupportedVersion(found: version, supported: formatVersion) }
        let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))

        var sections: [String: Range<Int>] = [:]
        var offset = 16
        for _ in 0..<count {
            guard raw.count - offset >= 16 else { throw .truncatedHeader }
            let name = String(decoding: raw[offset..<offset + 8].prefix { $0 != 0 }, as: UTF8.self)
            let length = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            offset += 16
            guard length <= UInt64(raw.count - offset) else { throw .truncatedSection(name) }
            guard sections[name] == nil else { throw .duplicateSection(name) }
            sections[name] = offset..<offset + Int(length)
            offset += min(Int(length) + padding(Int(length)), raw.count - offset)
        }
        return sections
    }
}
