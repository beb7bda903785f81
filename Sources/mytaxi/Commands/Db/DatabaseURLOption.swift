import ArgumentParser
import Foundation
import PostgresStorage

/// `--database URL`, shared by the `db` commands: the PostgreSQL database,
/// from the flag or else from `MYTAXI_DATABASE_URL`, as `mytaxi serve` reads it.
struct DatabaseURLOption: ParsableArguments {
    /// The variable that names the database when no flag does.
    static let environmentVariable = "MYTAXI_DATABASE_URL"

    /// The database URL the environment gives, nil when none (or empty).
    static var fromEnvironment: String? {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    @Option(help: ArgumentHelp(
        "The PostgreSQL database. Default: $\(DatabaseURLOption.environmentVariable).",
        valueName: "postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
    var database: String?

    /// The URL, checked (the error never shows the password).
    func url() throws -> PostgresURL {
        guard let text = database ?? Self.fromEnvironment else {
            throw ValidationError("missing --database postgres://... (or $\(Self.environmentVariable))")
        }
        do {
            return try PostgresURL(text)
        } catch {
            throw ValidationError("--database: \(error)")
        }
    }
}
