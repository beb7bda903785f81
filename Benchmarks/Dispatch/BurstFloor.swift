import Storage

/// The request path's shape with nothing on it: a call hops onto an actor,
/// as a command onto the dispatcher, then waits until a writer thread's
/// group commit, which writes nothing, settles it. The 1,000-request burst
/// against the dispatcher cannot be faster than this burst against the
/// floor: what is left is the scheduling of 1,000 tasks, two hops each and
/// one resumption from another thread, on the cores the host has, measured
/// in the same run as the reference for the burst's figures.
actor BurstFloor {
    private let committer = GroupCommitter<Int>(threadName: "mytaxi-bench-floor", commit: { _ in })
    private var sequence = 0

    deinit {
        committer.shutdown()
    }

    /// Takes the next number on the actor, then returns once the writer
    /// thread's commit covering it has run.
    nonisolated func execute() async {
        let number = await next()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            committer.submit([number]) { _ in continuation.resume() }
        }
    }

    private func next() -> Int {
        sequence += 1
        return sequence
    }
}

/// Runs `call` for 1,000 callers at once, each in its own task as a server
/// handles each request; returns each call's latency in microseconds, from
/// its task's start to its return.
func burstOfOneThousand(_ call: @escaping @Sendable (Int) async throws -> Void) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for caller in 0..<1_000 {
            group.addTask {
                let start = ContinuousClock.now
                try await call(caller)
                return Int((ContinuousClock.now - start) / .microseconds(1))
            }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
}
