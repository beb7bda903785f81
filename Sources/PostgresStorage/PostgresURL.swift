import Foundation

/// Where a PostgreSQL database is: a `postgres://` or `postgresql://` URL,
/// as libpq reads it (`postgres://USER:PASSWORD@HOST:PORT/DATABASE?OPTIONS`).
///
/// Its ``description`` leaves the password out, so that a URL can be put
/// in a log line or an error message safely; only libpq sees the text.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// The URL as given, password included: for libpq only.
    let text: String
    /// `HOST:PORT/DATABASE`, what messages name.
    public let server: String
    /// The user to log in as, as the URL names it (empty: libpq's default).
    public let user: String

    /// Reads `text`.
    /// - Throws: ``PostgresURLError`` naming what is wrong, without the password.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw PostgresURLError(problem: "a database URL starts with postgres:// (e.g. postgres://mytaxi:PASSWORD@127.0.0.1:5432/mytaxi)") }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw PostgresURLError(problem: "the database URL names no database (postgres://USER@\(host)/DATABASE)")
        }
        self.text = text
        self.user = components.user ?? ""
        self.server = "\(host):\(components.port ?? 5432)/\(database)"
    }

    /// `postgres://USER@HOST:PORT/DATABASE`, never the password.
    public var description: String {
        "postgres://" + (user.isEmpty ? "" : user + "@") + server
    }
}

/// A database URL that cannot be used, with what is wrong (never the password).
public struct PostgresURLError: Error, CustomStringConvertible, Sendable {
    /// What is wrong with it.
    public let problem: String

    public var description: String { problem }
}
