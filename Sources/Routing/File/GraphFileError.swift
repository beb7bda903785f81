/// Why a graph file could not be read or written; each names the problem and,
/// where there is one, the section.
public enum GraphFileError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened, read or written. The description is
    /// the reason alone: like every other case it leaves the path to the
    /// caller, which names the file (and the option it came from) once.
    case io(path: String, reason: String)
    /// The first 8 bytes are not ``GraphFile/magic``: not a mytaxi graph file.
    case badMagic
    /// The file was written in another format version.
    case unsupportedVersion(found: UInt32, supported: UInt32)
    /// The file ends inside the 16-byte file header or a section header.
    case truncatedHeader
    /// The file ends before the section's declared payload does.
    case truncatedSection(String)
    /// A section the graph needs is absent.
    case missingSection(String)
    /// Two sections share a name.
    case duplicateSection(String)
    /// A section's size or content contradicts the rest of the graph.
    case inconsistentSection(String, detail: String)
    /// A section name is empty, longer than 8 bytes, not ASCII, or taken by a core section.
    case invalidSectionName(String)

    public var description: String {
        switch self {
        case .io(_, let reason): reason
        case .badMagic: "not a mytaxi graph file (bad magic number)"
        case .unsupportedVersion(let found, let supported) where found < supported:
            "graph file format version \(found) was written by an older mytaxi; this build reads version \(supported) "
                + "(graphs that carry their speed profile): rebuild the graph from its map with "
                + "`mytaxi graph build MAP.osm.pbf -o CITY.graph --time-zone NAME [--speed-profile FILE] [--zones FILE]`"
        case .unsupportedVersion(let found, let supported):
            "graph file format version \(found) was written by a newer mytaxi; this build reads version \(supported): "
                + "rebuild the graph with this build's `mytaxi graph build`, or use the newer mytaxi"
        case .truncatedHeader: "graph file is truncated inside a header"
        case .truncatedSection(let name): "graph file is truncated in section \(name)"
        case .missingSection(let name): "graph file has no section \(name)"
        case .duplicateSection(let name): "graph file has section \(name) twice"
        case .inconsistentSection(let name, let detail): "graph file section \(name) is inconsistent: \(detail)"
        case .invalidSectionName(let name):
            "invalid section name \"\(name)\": 1 to 8 ASCII bytes, not a core section name"
        }
    }
}
