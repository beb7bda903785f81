import Foundation

/// Where the API keeps its answers to requests that carried an
/// `Idempotency-Key`, shared by every node of a service, for a day.
public protocol IdempotentAnswerStore: Sendable {
    /// The answer kept for `scope`, nil when there is none.
    func answer(for scope: String) async throws(StorageError) -> IdempotentAnswer?

    /// Keeps `answer` unless an answer for its scope is kept already (a
    /// concurrent request with the same key got there first).
    /// - Returns: the answer kept for the scope now: `answer`, or the one
    ///   kept before it, which the request must be answered with instead.
    func keep(_ answer: IdempotentAnswer) async throws(StorageError) -> IdempotentAnswer

    /// Forgets the answers given before `date`; returns how many.
    @discardableResult
    func forget(answeredBefore date: Date) async throws(StorageError) -> Int
}
