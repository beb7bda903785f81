import Foundation

/// Which map file a graph was built from: its name, size and a checksum,
/// stored in the graph file's `source` section so that an operator (and
/// `mytaxi graph info`) can tell whether a graph is stale.
///
/// The checksum is 64-bit FNV-1a over the file's bytes: cheap, and enough to
/// tell two extracts apart (it is not a security hash).
public struct GraphSource: Sendable, Equatable, CustomStringConvertible {
    /// The name of the extra section holding it.
    public static let sectionName = "source"

    /// The map file's name, without its folder.
    public var fileName: String
    /// The map file's size in bytes.
    public var byteCount: Int
    /// FNV-1a (64-bit) of the map file's bytes.
    public var checksum: UInt64

    /// Creates a source description from its parts.
    public init(fileName: String, byteCount: Int, checksum: UInt64) {
        self.fileName = fileName
        self.byteCount = byteCount
        self.checksum = checksum
    }

    /// Describes the map file at `path`, reading it once.
    /// - Throws: ``GraphFileError/io(path:reason:)`` when it cannot be read.
    public init(describing path: String) throws(GraphFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        let checksum = data.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in raw.bindMemory(to: UInt8.self) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        self.init(fileName: URL(fileURLWithPath: path).lastPathComponent, byteCount: data.count, checksum: checksum)
    }

    /// The section payload: `fnv1a64:<16 hex digits> <bytes> <file name>`, UTF-8.
    public var sectionPayload: [UInt8] {
        Array("fnv1a64:\(hexChecksum) \(byteCount) \(fileName)".utf8)
    }

    /// Reads a `source` section payload.
    /// - Throws: ``GraphFileError/inconsistentSection(_:detail:)`` when it is not in that form.
    public init(sectionPayload payload: [UInt8]) throws(GraphFileError) {
        let parts = String(decoding: payload, as: UTF8.self).split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3, parts[0].hasPrefix("fnv1a64:"),
              let checksum = UInt64(parts[0].dropFirst("fnv1a64:".count), radix: 16),
              let byteCount = Int(parts[1]) else {
            throw .inconsistentSection(Self.sectionName, detail: "expected `fnv1a64:HEX BYTES NAME`")
        }
        self.init(fileName: parts[2], byteCount: byteCount, checksum: checksum)
    }

    private var hexChecksum: String {
        let digits = String(checksum, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public var description: String { "\(fileName), \(byteCount) bytes, fnv1a64 \(hexChecksum)" }
}
