/// Where accepted fixes go to be made durable before they are acknowledged
/// (SPEC I6). The storage layer implements it with group commit; listeners
/// only ACK a frame once `completion` reported success for its fixes.
public protocol FixSink: Sendable {
    /// Stores `fixes` durably, then calls `completion` (on any thread).
    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

/// An error a sink gives for fixes it did not try to store because it is
/// closing: expected while the service stops (a terminal's last fixes
/// arrive after the archive stopped taking them, and are not
/// acknowledged), so not a fault to log as one.
public protocol SinkClosingError: Error {
    /// True when the sink refused the fixes because it is closing.
    var isSinkClosing: Bool { get }
}
