/// What the fleet's matched drives said about one edge in one slot: the
/// weight of the observations (edges driven, a part of an edge counting in
/// part) and the weighted sum of their log time ratios, log(observed ÷
/// free-flow time). Their mean is the edge's learned log ratio.
public struct ObservationSums: Sendable, Equatable {
    /// Edges driven, fractions counted as such.
    public var weight: Double
    /// Σ weight × log(observed time ÷ free-flow time).
    public var logSum: Double

    /// Sums with the given weight and log sum.
    public init(weight: Double = 0, logSum: Double = 0) {
        self.weight = weight
        self.logSum = logSum
    }

    /// Adds one observation of `weight` with log ratio `logRatio`.
    public mutating func add(weight: Double, logRatio: Double) {
        self.weight += weight
        logSum += weight * logRatio
    }

    /// Adds `other`'s observations, each weighed `scale` times as much (a
    /// pooled group, a minute of the live window weighed down by its age).
    public mutating func add(_ other: ObservationSums, scaledBy scale: Double) {
        weight += scale * other.weight
        logSum += scale * other.logSum
    }
}

/// The weekly speeds learned from the fleet: per edge and quarter-hour of the
/// week (``WeekSlot``), the sums of what matched drives measured. Sparse:
/// only the edges taxis drove, in the slots they drove them.
///
/// Each cell forgets slowly: once its weight reaches ``maxWeight``, new
/// observations replace old ones in proportion, so a street that changed
/// (roadworks, a new bus lane) is learned again within weeks.
public struct LearnedSpeedTable: Sendable, Equatable {
    /// The weight beyond which a cell's sums are scaled down as new observations come.
    public static let maxWeight = 30.0
    /// Per slot, the sums of each edge with observations.
    public private(set) var slots: [[Int32: ObservationSums]]

    /// An empty table: nothing learned yet.
    public init() {
        slots = Array(repeating: [:], count: WeekSlot.perWeek)
    }

    /// A table of stored cells (as ``cells`` lists them).
    public init(cells: some Sequence<(edge: Int, slot: Int, sums: ObservationSums)>) {
        self.init()
        for cell in cells where (0..<WeekSlot.perWeek).contains(cell.slot) {
            slots[cell.slot][Int32(cell.edge)] = cell.sums
        }
    }

    /// Adds an observation of `edge` in `slot`.
    public mutating func add(edge: Int, slot: Int, weight: Double, logRatio: Double) {
        var sums = slots[slot][Int32(edge), default: ObservationSums()]
        if sums.weight + weight > Self.maxWeight {
            let keep = max(Self.maxWeight - weight, 0) / sums.weight
            sums = ObservationSums(weight: sums.weight * keep, logSum: sums.logSum * keep)
        }
        sums.add(weight: weight, logRatio: logRatio)
        slots[slot][Int32(edge)] = sums
    }

    /// Every cell, slot by slot: what is stored.
    public var cells: [(edge: Int, slot: Int, sums: ObservationSums)] {
        slots.enumerated().flatMap { slot, edges in
            edges.map { (edge: Int($0.key), slot: slot, sums: $0.value) }.sorted { $0.edge < $1.edge }
        }
    }

    /// How many (edge, slot) cells have observations.
    public var cellCount: Int { slots.reduce(0) { $0 + $1.count } }

    /// How many edges have observations in `slot`.
    public func edgesWithData(inSlot slot: Int) -> Int { slots[slot].count }
}

extension LearnedSpeedTable {
    /// The cells as bytes, to store: per cell the edge (UInt32), the slot
    /// (UInt16), the weight and the log sum (Float32 each), little-endian.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cellCount * 14)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for (slot, edges) in slots.enumerated() {
            for (edge, sums) in edges.sorted(by: { $0.key < $1.key }) {
                append(UInt32(edge))
                append(UInt16(slot))
                append(Float(sums.weight).bitPattern)
                append(Float(sums.logSum).bitPattern)
            }
        }
        return bytes
    }

    /// The table `serialized()` wrote, for a graph of `edgeCount` edges.
    /// - Throws: ``LearnedSpeedTableError`` when the bytes are cut short or name an edge or slot that is not there.
    public init(serialized bytes: some Collection<UInt8>, edgeCount: Int) throws(LearnedSpeedTableError) {
        let data = Array(bytes)
        guard data.count % 14 == 0 else { throw .truncated(bytes: data.count) }
        self.init()
        func read<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: data[offset..<offset + MemoryLayout<T>.size]) }
            return T(littleEndian: value)
        }
        for offset in stride(from: 0, to: data.count, by: 14) {
            let edge = Int(read(UInt32.self, at: offset)), slot = Int(read(UInt16.self, at: offset + 4))
            guard edge < edgeCount, slot < WeekSlot.perWeek else { throw .outOfRange(edge: edge, slot: slot) }
            let weight = Double(Float(bitPattern: read(UInt32.self, at: offset + 6)))
            let logSum = Double(Float(bitPattern: read(UInt32.self, at: offset + 10)))
            slots[slot][Int32(edge)] = ObservationSums(weight: weight, logSum: logSum)
        }
    }

    /// A short text that differs between graphs whose edges differ: stored
    /// with the table, so that a service started on another graph does not
    /// read it onto the wrong roads.
    public static func fingerprint(of graph: RoadGraph) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt32) {
            hash = (hash ^ UInt64(value)) &* 0x100_0000_01b3
        }
        mix(UInt32(graph.nodeCount))
        mix(UInt32(graph.edgeCount))
        for edge in 0..<graph.edgeCount {
            mix(graph.edgeHead[edge])
            mix(graph.edgeDurationMs[edge])
        }
        return "v1-\(graph.nodeCount)-\(graph.edgeCount)-" + String(hash, radix: 16)
    }
}

/// Why stored learned speeds cannot be read.
public enum LearnedSpeedTableError: Error, Equatable, CustomStringConvertible {
    case truncated(bytes: Int)
    case outOfRange(edge: Int, slot: Int)

    public var description: String {
        switch self {
        case .truncated(let bytes): "\(bytes) bytes is not a whole number of 14-byte cells"
        case let .outOfRange(edge, slot): "a cell names edge \(edge) in slot \(slot), which the graph does not have"
        }
    }
}
