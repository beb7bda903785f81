import Foundation
import Synchronization

/// Answers in memory, for tests and the in-memory service.
public final class InMemoryIdempotentAnswerStore: IdempotentAnswerStore {
    private let answers = Mutex<[String: IdempotentAnswer]>([:])

    /// An empty store.
    public init() {}

    public func answer(for scope: String) async throws(StorageError) -> IdempotentAnswer? {
        answers.withLock { $0[scope] }
    }

    public func keep(_ answer: IdempotentAnswer) async throws(StorageError) -> IdempotentAnswer {
        answers.withLock { answers in
            if let kept = answers[answer.scope] { return kept }
            answers[answer.scope] = answer
            return answer
        }
    }

    public func forget(answeredBefore date: Date) async throws(StorageError) -> Int {
        answers.withLock { answers in
            let old = answers.filter { $0.value.answeredAt < date }.map(\.key)
            for scope in old { answers[scope] = nil }
            return old.count
        }
    }
}
