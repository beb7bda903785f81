import Foundation

/// The environment variable that names the PostgreSQL database when no
/// `--database` flag does, for `serve` and the `db` commands alike.
public enum DatabaseEnvironment {
    /// The variable's name.
    public static let variable = "MYTAXI_DATABASE_URL"

    /// The database URL the environment gives, nil when none (or empty).
    public static var url: String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
