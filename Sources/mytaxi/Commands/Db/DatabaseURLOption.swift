import ArgumentParser
import Foundation
import PostgresStorage
import ServeConfig

/// `--database URL`, shared by the `db` commands: the PostgreSQL database,
/// from the flag or else from `MYTAXI_DATABASE_URL`, as `mytaxi serve` reads it.
struct DatabaseURLOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The PostgreSQL database. Default: $\(DatabaseEnvironment.variable).",
        valueName: "postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
    var database: String?

    /// The URL, checked (the error never shows the password).
    func url() throws -> PostgresURL {
        guard let text = database ?? DatabaseEnvironment.url else {
            throw ValidationError("missing --database postgres://... (or $\(DatabaseEnvironment.variable))")
        }
        do {
            return try PostgresURL(text)
        } catch {
            throw ValidationError("--database: \(error)")
        }
    }
}
