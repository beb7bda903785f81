/// A statement PostgreSQL refused or could not run: its message, its
/// SQLSTATE code when the server sent one, and whether the connection is
/// lost (then the pool drops it and the next use reconnects).
package struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// PostgreSQL's message, trimmed.
    let message: String
    /// The SQLSTATE (e.g. `23505`, a unique violation), empty when none.
    var sqlState: String = ""
    /// Whether the connection is gone.
    var connectionLost = false

    package var description: String { message }

    /// SQLSTATE of a unique constraint violated.
    static let uniqueViolation = "23505"
}
