/// One thing wrong with a zone file, naming the feature it concerns.
public struct ZoneProblem: Sendable, Equatable, CustomStringConvertible {
    /// Whether the file is rejected for it (`error`) or loads after a repair (`warning`).
    public enum Severity: String, Sendable, Equatable {
        case error
        case warning
    }

    /// The feature's id, `#N` (its 0-based position in `features`) when it
    /// has no usable id, or `file` for the collection as a whole.
    public var subject: String
    /// What is wrong, in words a planner can act on.
    public var message: String
    public var severity: Severity

    public init(subject: String, message: String, severity: Severity = .error) {
        self.subject = subject
        self.message = message
        self.severity = severity
    }

    /// `subject: message`, the line `mytaxi zones validate` prints.
    public var description: String { "\(subject): \(message)" }
}

/// Why a zone file was not loaded.
public enum ZoneFileError: Error, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(String)
    /// The file is JSON but has problems; nothing was loaded.
    case invalid(problems: [ZoneProblem], warnings: [ZoneProblem])

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notJSON(let reason): "not valid JSON: \(reason)"
        case .invalid(let problems, _):
            "zone file rejected, \(problems.count) problem(s):\n"
                + problems.map(\.description).joined(separator: "\n")
        }
    }
}
