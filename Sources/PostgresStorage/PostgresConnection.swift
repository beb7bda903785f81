import CLibPQ
import Foundation
import Storage

/// One libpq connection: statements with parameters only, each prepared
/// once per connection and run by name afterwards, transactions, and
/// `COPY ... FROM STDIN`.
///
/// Not for two threads at once: a ``PostgresPool`` hands it to one caller
/// at a time (hence `@unchecked Sendable`).
package final class PostgresConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    /// The names of the statements prepared on this connection, by SQL text.
    private var prepared: [String: String] = [:]

    /// Connects to `url`, waiting at most `timeoutSeconds`.
    /// - Throws: ``StorageError/serverUnavailable(server:reason:)`` saying
    ///   whether the server could not be reached or refused the login, and what to do.
    init(url: PostgresURL, timeoutSeconds: Int = 5) throws(StorageError) {
        // Later keywords win: the URL (expanded from dbname) overrides the defaults before it.
        let keywords = ["connect_timeout", "application_name", "client_encoding", "dbname"]
        let values = [String(timeoutSeconds), "mytaxi", "UTF8", url.text]
        let connection = Self.withCStrings(keywords) { keywordPointers in
            Self.withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw .serverUnavailable(server: url.server, reason: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw .serverUnavailable(server: url.server, reason: Self.explain(connectionFailure: message, url: url))
        }
        self.connection = connection
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(connection)
    }

    /// Whether the connection still works as far as libpq knows.
    var isUsable: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Says why a connection failed and what to do, from libpq's message.
    static func explain(connectionFailure message: String, url: PostgresURL) -> String {
        let lowered = message.lowercased()
        if lowered.contains("authentication failed") || lowered.contains("no pg_hba.conf entry")
            || lowered.contains("password") || (lowered.contains("role") && lowered.contains("does not exist")) {
            return "PostgreSQL refused the login of \(url.user.isEmpty ? "the default user" : "user \(url.user)") "
                + "(\(message)); check the user and password in the database URL and the server's pg_hba.conf"
        }
        if lowered.contains("database") && lowered.contains("does not exist") {
            return "\(message); create it (createdb) or name another database in the URL"
        }
        return "cannot reach PostgreSQL (\(message)); check that the server is running and that the URL's host and port are right"
    }

    /// Runs `sql`, which may hold several statements and no parameters
    /// (schema changes, `BEGIN`, `COMMIT`).
    package func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs one statement with `parameters` (`$1`, `$2`, ...), preparing it
    /// on first use on this connection, and returns its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        let name = try statementName(for: sql)
        let forms = parameters.map(\.wireForm)
        let lengths = forms.map { Int32($0.bytes?.count ?? 0) }
        let formats = forms.map { Int32($0.binary ? 1 : 0) }
        // libpq reads a text parameter up to its NUL (paramLengths counts for binary ones only).
        let buffers: [UnsafeMutablePointer<UInt8>?] = forms.map { form in
            guard let bytes = form.bytes else { return nil }
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
            buffer.initialize(from: bytes, count: bytes.count)
            buffer[bytes.count] = 0
            return buffer
        }
        defer { buffers.forEach { $0?.deallocate() } }
        let result = buffers.map { $0.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } }
            .withUnsafeBufferPointer { values in
                PQexecPrepared(connection, name, Int32(parameters.count), values.baseAddress, lengths, formats, 0)
            }
        defer { PQclear(result) }
        try check(result)
        return PostgresRows(result!)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body(self)
            try execute("COMMIT")
            return value
        } catch {
            if isUsable { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `copy` (a `COPY ... FROM STDIN` statement) and sends it `data`.
    func copyIn(_ copy: String, data: [UInt8]) throws(PostgresError) {
        let start = PQexec(connection, copy)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start)
            throw PostgresError(message: "the server did not start the COPY")
        }
        PQclear(start)
        let sent = data.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                PQputCopyData(connection, $0, Int32(bytes.count))
            }
        }
        let ended = PQputCopyEnd(connection, sent == 1 ? nil : "the client could not send its data")
        guard ended == 1 else { throw lastError() }
        var failure: PostgresError?
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            do throws(PostgresError) { try check(result) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    private func statementName(for sql: String) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "mytaxi_\(prepared.count + 1)"
        let result = PQprepare(connection, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        guard let result else { throw lastError() }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN, PGRES_EMPTY_QUERY:
            return
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw PostgresError(
                message: Self.trimmed(PQresultErrorMessage(result)), sqlState: state, connectionLost: !isUsable)
        }
    }

    private func lastError() -> PostgresError {
        PostgresError(message: Self.trimmed(PQerrorMessage(connection)), connectionLost: !isUsable)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "no message"
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
