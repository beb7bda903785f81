import Foundation

/// A wait that gave up: what was awaited, for how long, and what was seen last.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var awaited: String
    public var limit: Duration
    public var lastSeen: String

    public var description: String {
        "gave up after \(limit) waiting for \(awaited); last seen: \(lastSeen)"
    }
}

/// How long a wait in a test allows by default: long, because `make test`
/// runs suites side by side on a machine of two cores, and a wait that
/// holds only costs its time when the condition never comes.
public let defaultPatience = Duration.seconds(60)

/// Reads `probe` until its value satisfies `condition`, and returns that
/// value; gives up after `limit` with a ``WaitTimedOut`` that says what
/// was seen last. The one way a test waits for state that changes on its
/// own (another task, a child process, a timer): never a fixed sleep.
@discardableResult
public func waitUntil<Value>(
    _ awaited: String, within limit: Duration = defaultPatience,
    _ probe: () async throws -> Value, satisfies condition: (Value) throws -> Bool
) async throws -> Value {
    let deadline = ContinuousClock.now + limit
    var pause = Duration.milliseconds(5)
    while true {
        let value = try await probe()
        if try condition(value) { return value }
        guard ContinuousClock.now < deadline else {
            throw WaitTimedOut(awaited: awaited, limit: limit, lastSeen: String(describing: value))
        }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(100))
    }
}

/// Waits until `condition` holds, giving up after `limit` (see
/// ``waitUntil(_:within:_:satisfies:)``).
public func waitUntil(
    _ awaited: String, within limit: Duration = defaultPatience, _ condition: () async throws -> Bool
) async throws {
    try await waitUntil(awaited, within: limit, condition, satisfies: { $0 })
}
