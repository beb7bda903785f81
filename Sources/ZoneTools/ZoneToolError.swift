import Zones

/// Why a zone tool could not do its work: the input cannot be read (the
/// command exits 2, as for misuse) or its data has problems (exit 1).
public enum ZoneToolError: Error, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(path: String, reason: String)
    /// The file is JSON, but its data has problems, each naming its feature.
    case invalidData(path: String, problems: [ZoneProblem])

    /// True when the input itself could not be read, rather than its data being wrong.
    public var isUnreadable: Bool {
        switch self {
        case .unreadable, .notJSON: true
        case .invalidData: false
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notJSON(let path, let reason): "\(path): not valid JSON: \(reason)"
        case .invalidData(let path, let problems):
            "\(path): \(problems.count) problem(s):\n" + problems.map(\.description).joined(separator: "\n")
        }
    }

    /// The error of a zone file that ``ZoneFileLoader`` refused, for the file at `path`.
    public init(_ error: ZoneFileError, path: String) {
        switch error {
        case .unreadable(_, let reason): self = .unreadable(path: path, reason: reason)
        case .notJSON(let reason): self = .notJSON(path: path, reason: reason)
        case .invalid(let problems, _): self = .invalidData(path: path, problems: problems)
        }
    }
}
