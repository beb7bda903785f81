import Foundation
import Logging
import ServiceClock
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing
@testable import MytaxiServer

/// Background upkeep on a timer: a round at once, then one per interval of
/// the service clock, each round seeing what the one before kept; a
/// graceful shutdown ends the pause without waiting it out.
@Suite(.timeLimit(.minutes(20))) struct PeriodicServiceTests {
    /// How long a wait may take: the service's task is only scheduled, and
    /// in the parallel pass on two busy cores it may wait minutes for a
    /// thread (60 s was seen to be too short); the suite's limit still bounds it.
    static let patience: Duration = .seconds(900)

    /// The counts the rounds told, in order.
    final class Seen: Sendable {
        let counts = Mutex<[Int]>([])
        var all: [Int] { counts.withLock { $0 } }
    }

    /// Counts its rounds in itself and tells them to `seen`.
    struct CountingWork: PeriodicWork {
        let seen: Seen
        let interval: Duration = .seconds(60)
        var rounds = 0

        mutating func round() async {
            rounds += 1
            let count = rounds
            seen.counts.withLock { $0.append(count) }
        }
    }

    @Test func aRoundComesAtOnceThenOneEachIntervalOfTheServiceClock() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let seen = Seen()
        let service = Task { try await PeriodicService(CountingWork(seen: seen), clock: clock).run() }
        defer { service.cancel() }
        for round in 2...4 {
            try await waitUntil("round \(round - 1) done and pausing", within: Self.patience) { clock.sleeperCount == 1 }
            clock.advance(by: .seconds(59))
            #expect(clock.sleeperCount == 1, "still pausing a second before the interval ends")
            clock.advance(by: .seconds(1))
            try await waitUntil("round \(round)", within: Self.patience) { seen.all } satisfies: { $0.count == round }
        }
        #expect(seen.all == [1, 2, 3, 4], "each round saw the count the one before left")
    }

    @Test func aGracefulShutdownEndsThePauseAtOnce() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let seen = Seen()
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: PeriodicService(CountingWork(seen: seen), clock: clock))], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        try await waitUntil("the first round done and pausing", within: Self.patience) { clock.sleeperCount == 1 }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(seen.all == [1], "stopped in its first pause, the clock never moved")
    }
}
