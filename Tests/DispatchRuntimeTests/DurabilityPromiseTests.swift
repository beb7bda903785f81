@testable import DispatchRuntime
import Storage
import Testing

/// The promise a command's caller awaits off the dispatcher: it hears the
/// commit's outcome whether the commit came before or after it began to wait.
@Suite(.timeLimit(.minutes(20))) struct DurabilityPromiseTests {
    @Test func aPromiseSettledBeforeTheWaitReturnsAtOnce() async throws {
        let promise = DurabilityPromise()
        promise.settle(.success(()))
        try await promise.wait()
    }

    @Test func aWaiterIsResumedWhenTheCommitComesLater() async throws {
        let promise = DurabilityPromise()
        async let waited: Void = promise.wait()
        try await Task.sleep(for: .milliseconds(10))
        promise.settle(.success(()))
        try await waited
    }

    /// A failed commit reaches the waiter; a second settlement changes nothing.
    @Test func aFailedCommitIsThrownAndOnlyTheFirstOutcomeCounts() async {
        let promise = DurabilityPromise()
        promise.settle(.failure(StorageError.shuttingDown))
        promise.settle(.success(()))
        await #expect(throws: StorageError.shuttingDown) { try await promise.wait() }
    }
}
