/// Where accepted fixes go to be made durable before they are acknowledged
/// (SPEC I6). The storage layer implements it with group commit; listeners
/// only ACK a frame once `completion` reported success for its fixes.
public protocol FixSink: Sendable {
    /// Stores `fixes` durably, then calls `completion` (on any thread).
    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}
