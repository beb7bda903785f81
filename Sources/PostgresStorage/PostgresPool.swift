import Dispatch
import Foundation
import Storage
import Synchronization

/// A few connections to one PostgreSQL database, shared by every store
/// of the service: a caller borrows one, uses it alone, and gives it back.
///
/// A connection that failed is dropped, and the next caller connects
/// again. While the server cannot be reached, connection attempts back off
/// (0.1 s, doubling up to 5 s): in between, callers fail at once with the
/// last reason instead of each waiting for a timeout, so that ingest
/// refuses (and does not acknowledge) quickly and resumes by itself once
/// the server is back. ``unavailableReason`` says why, for `/healthz`.
public final class PostgresPool: Sendable {
    /// The database, for messages (never the password).
    public let url: PostgresURL
    private let permits: DispatchSemaphore
    private let state = Mutex(State())

    private struct State {
        var idle: [PostgresConnection] = []
        var failure: Failure?
    }

    private struct Failure {
        var error: StorageError
        var retryAt: ContinuousClock.Instant
        var delay: Duration
    }

    /// The first wait after a failed connection attempt.
    static let firstBackoff = Duration.milliseconds(100)
    /// The longest wait between connection attempts.
    static let longestBackoff = Duration.seconds(5)

    /// A pool of at most `maximumConnections` connections to `url`; none
    /// is opened until one is needed.
    public init(url: PostgresURL, maximumConnections: Int = 8) {
        self.url = url
        permits = DispatchSemaphore(value: max(1, maximumConnections))
    }

    /// Why the database cannot be used now, nil when the last attempt to
    /// use it worked.
    public var unavailableReason: String? {
        state.withLock { $0.failure.map { "\($0.error)" } }
    }

    /// Runs `body` with a connection of its own, blocking the calling
    /// thread while it waits for one; a connection that failed in `body` is
    /// dropped.
    /// - Throws: ``StorageError/serverUnavailable(server:reason:)`` when no
    ///   connection can be had, or what `body` throws.
    package func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        permits.wait()
        defer { permits.signal() }
        let connection = try borrow()
        do {
            let value = try body(connection)
            giveBack(connection)
            return value
        } catch {
            if connection.isUsable {
                giveBack(connection)
            } else {
                // The server went away: the idle connections are as dead as this one.
                state.withLock { state in
                    state.idle.removeAll()
                    state.failure = Failure(error: Self.lost(url, error), retryAt: .now, delay: Self.firstBackoff)
                }
            }
            throw error
        }
    }

    /// Runs `body` in a transaction on a connection of its own.
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in try connection.transaction(body) }
    }

    /// Runs `body` in a transaction off the caller's thread (the stores'
    /// async reads and writes must not block the cooperative pool); a
    /// ``StorageError`` it throws passes through, any other failure is
    /// reported as `wrap` makes it.
    func run<T: Sendable>(
        transaction: Bool = false, _ wrap: @escaping @Sendable (String) -> StorageError,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws(StorageError) -> T {
        let result: Result<T, StorageError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let value = try transaction ? self.transaction(body) : self.withConnection(body)
                    continuation.resume(returning: .success(value))
                } catch let error as StorageError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(wrap("\(error)")))
                }
            }
        }
        return try result.get()
    }

    /// Runs `SELECT 1` (off the caller's thread) and returns why it failed,
    /// nil when the server answered; ``unavailableReason`` follows.
    public func probe() async -> String? {
        do {
            try await run({ .readFailed(reason: $0) }) { connection in _ = try connection.query("SELECT 1") }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Closes the idle connections; borrowed ones close when given back after this.
    public func close() {
        state.withLock { $0.idle.removeAll() }
    }

    private func borrow() throws(StorageError) -> PostgresConnection {
        let waiting: Failure? = state.withLock { state in
            if let failure = state.failure, ContinuousClock.now < failure.retryAt { return failure }
            return nil
        }
        if let waiting {
            throw waiting.error
        }
        if let idle = state.withLock({ $0.idle.popLast() }) { return idle }
        do {
            let connection = try PostgresConnection(url: url)
            state.withLock { $0.failure = nil }
            return connection
        } catch {
            state.withLock { state in
                let delay = min((state.failure?.delay ?? Self.firstBackoff / 2) * 2, Self.longestBackoff)
                state.failure = Failure(error: error, retryAt: .now + delay, delay: delay)
            }
            throw error
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        state.withLock { state in
            state.idle.append(connection)
            state.failure = nil
        }
    }

    private static func lost(_ url: PostgresURL, _ error: any Error) -> StorageError {
        .serverUnavailable(server: url.server, reason: "the connection was lost (\(error)); reconnecting")
    }
}
