import Foundation

/// Runs `work`, which blocks (waiting for a process, a pipe or an HTTP
/// answer), on a thread of its own and waits for it without holding a
/// thread of the cooperative pool.
///
/// The tests share one process and its pool, which has a thread per core:
/// a test that blocked a pool thread for a `mytaxi` command's whole run
/// held up every other test's tasks, and on a 2-core machine a few of them
/// at once starved the rest until their deadlines passed.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
