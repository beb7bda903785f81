/// Why places could not be read, stored or looked up.
public enum PlaceError: Error, Equatable, CustomStringConvertible {
    /// The OpenStreetMap file could not be read.
    case unreadable(path: String, reason: String)
    /// A stored place catalog is damaged or of an unknown version.
    case damaged(reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            "cannot read places from \(path): \(reason)"
        case let .damaged(reason):
            "the place catalog is damaged: \(reason); rebuild the graph file with `mytaxi graph build`"
        }
    }
}
