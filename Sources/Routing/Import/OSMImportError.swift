/// Why an OpenStreetMap file could not be imported.
public enum OSMImportError: Error, Equatable, CustomStringConvertible {
    /// The file is missing, unreadable or not OSM data; `reason` is the reader's message.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read OSM file \(path): \(reason)"
        }
    }
}
