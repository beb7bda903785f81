import Foundation
import GeoKit

#if _endian(big)
#error("GraphFile stores raw little-endian arrays and supports little-endian hosts only")
#endif

/// The binary road graph file: build once with `mytaxi graph build`, load in
/// milliseconds.
///
/// Layout (all integers little-endian):
///
/// | offset | size | content |
/// | --- | --- | --- |
/// | 0 | 8 | magic `MYTAXIRG` |
/// | 8 | 4 | format version (``formatVersion``) |
/// | 12 | 4 | number of sections |
/// | 16 | … | sections |
///
/// Each section is an 8-byte name (ASCII, NUL-padded), an 8-byte payload
/// length, then the payload, zero-padded to a multiple of 8 bytes so every
/// payload starts 8-byte aligned. Payloads are raw arrays, so loading is one
/// read plus one copy per array. The graph's sections are `profile` (UTF-8
/// name), `coords` (Float64 longitude, latitude per node), `firstedg`
/// (UInt32, node count + 1), `edgehead` and `duration` (UInt32 per edge),
/// `lengthm` (Float32 per edge), `roadclas` (UInt8 ``RoadClass`` per
/// edge), `lanecls` (UInt8 ``LaneClass`` per edge) and `signals` (UInt8
/// ``SignalApproach`` per edge; both since version 2). Other sections (the
/// query engine's ordering, ``wayIDSection``) travel through untouched, so
/// later stages add data without a format change; since version 3 a graph
/// file always has the speed profile's (``RoutingGraph``).
public enum GraphFile {
    /// The first 8 bytes of every graph file.
    public static let magic = Array("MYTAXIRG".utf8)
    /// The layout version this build reads and writes: 3 since every graph
    /// file carries its speed profile (``RoutingGraph/speedProfileSection``),
    /// 2 added `lanecls` and `signals`.
    public static let formatVersion: UInt32 = 3
    /// The conventional extra section for each edge's OSM way id (Int64), see
    /// ``GraphBuildResult/edgeWayIDs``.
    public static let wayIDSection = "wayids"

    /// The names of the graph's own sections, in file order.
    public static var coreSectionNames: [String] {
        [Core.profile, Core.coordinates, Core.firstEdge, Core.edgeHead, Core.duration, Core.length, Core.roadClass,
         Core.laneClass, Core.signalApproach]
    }

    enum Core {
        static let profile = "profile", coordinates = "coords", firstEdge = "firstedg", edgeHead = "edgehead"
        static let duration = "duration", length = "lengthm", roadClass = "roadclas", laneClass = "lanecls"
        static let signalApproach = "signals"
        static let all: Set<String> = [profile, coordinates, firstEdge, edgeHead, duration, length, roadClass, laneClass,
                                       signalApproach]
    }

    /// What a graph file holds.
    public struct Contents: Sendable, Equatable {
        /// The road graph.
        public var graph: RoadGraph
        /// The name of the profile it was built for (`car`, `foot`).
        public var profileName: String
        /// Every non-graph section, by name, payload without padding.
        public var extraSections: [String: [UInt8]]
    }

    /// Writes `graph` and `extraSections` to `url` (atomically: a reader never
    /// sees half a file).
    /// - Parameters:
    ///   - graph: the graph to store.
    ///   - profile: the name of the profile it was built for.
    ///   - extraSections: more sections by name (1 to 8 ASCII bytes, not a core name).
    ///   - url: the file to write.
    /// - Throws: ``GraphFileError/invalidSectionName(_:)``, ``GraphFileError/io(path:reason:)``.
    public static func write(graph: RoadGraph, profile: String, extraSections: [String: [UInt8]] = [:],
                             to url: URL) throws(GraphFileError) {
        for name in extraSections.keys where Core.all.contains(name) || !isValidName(name) {
            throw .invalidSectionName(name)
        }
        var sections: [(String, [UInt8])] = [
            (Core.profile, Array(profile.utf8)),
            (Core.coordinates, bytes(of: flatCoordinates(graph.coordinates))),
            (Core.firstEdge, bytes(of: graph.firstEdge)),
            (Core.edgeHead, bytes(of: graph.edgeHead)),
            (Core.duration, bytes(of: graph.edgeDurationMs)),
            (Core.length, bytes(of: graph.edgeLengthMetres)),
            (Core.roadClass, graph.edgeRoadClass.map(\.rawValue)),
            (Core.laneClass, graph.edgeLaneClass.map(\.rawValue)),
            (Core.signalApproach, graph.edgeSignalApproach.map(\.rawValue)),
        ]
        sections += extraSections.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }

        var file = magic
        append(formatVersion, to: &file)
        append(UInt32(sections.count), to: &file)
        for (name, payload) in sections {
            file += Array(name.utf8) + [UInt8](repeating: 0, count: 8 - name.utf8.count)
            append(UInt64(payload.count), to: &file)
            file += payload
            file += [UInt8](repeating: 0, count: padding(payload.count))
        }
        do {
            try Data(file).write(to: url, options: .atomic)
        } catch {
            throw .io(path: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// The raw bytes of an array of plain values, for a section payload.
    public static func bytes<T: BitwiseCopyable>(of array: [T]) -> [UInt8] {
        array.withUnsafeBytes { Array($0) }
    }

    /// An array of plain values from a section payload.
    /// - Throws: ``GraphFileError/inconsistentSection(_:detail:)`` when the
    ///   payload is not a whole number of values.
    public static func array<T: BitwiseCopyable>(of type: T.Type, from payload: [UInt8],
                                                 section: String) throws(GraphFileError) -> [T] {
        try payload.withUnsafeBytes { raw in
            Result { () throws(GraphFileError) in try copy(raw, as: type, section: section) }
        }.get()
    }

    /// Longitude, latitude, longitude, ... for the `coords` section.
    private static func flatCoordinates(_ coordinates: [Coordinate]) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(2 * coordinates.count)
        for coordinate in coordinates {
            values.append(coordinate.longitude)
            values.append(coordinate.latitude)
        }
        return values
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 8 && name.utf8.allSatisfy { $0 > 0 && $0 < 128 }
    }

    static func padding(_ count: Int) -> Int { (8 - count % 8) % 8 }

    private static func append<T: FixedWidthInteger>(_ value: T, to file: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { file += $0 }
    }
}
