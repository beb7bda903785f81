import DispatchCore
import DispatchRuntime
import Foundation
import ServiceClock
import Storage
import Testing

/// Two nodes' dispatchers on one shared log (issue 40's service of several
/// nodes, in memory on a manual clock): the lease holder decides, the other
/// replays its log and publishes the same notices; when the lease passes,
/// the new holder goes on from the log's state, and the deposed one can
/// write nothing more.
@Suite(.timeLimit(.minutes(20))) struct DispatcherRoleTests {
    static let lease: Duration = .seconds(6)

    /// Two nodes' dispatchers on one fenced log, both following, and the
    /// first one's lease, under which it decides.
    struct TwoNodes {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let ownership: InMemoryDispatchOwnership
        let log: InMemoryDispatchLog
        let first: Dispatcher
        let second: Dispatcher
        let firstLease: DispatchLease

        init() async throws {
            ownership = InMemoryDispatchOwnership(clock: clock)
            log = InMemoryDispatchLog(ownership: ownership)
            first = try await Dispatcher(log: log, clock: clock, role: .following(owner: nil))
            second = try await Dispatcher(log: log, clock: clock, role: .following(owner: nil))
            firstLease = try #require(try await ownership.claim(node: "a", address: "http://a", for: DispatcherRoleTests.lease))
            try await first.decide(holding: firstLease)
        }
    }

    @Test func theFollowerReplaysTheOwnersLogAndTakesOverWhereItStopped() async throws {
        let nodes = try await TwoNodes()
        let (clock, ownership, log, first, second, firstLease) = (nodes.clock, nodes.ownership, nodes.log, nodes.first, nodes.second, nodes.firstLease)
        #expect(try await ownership.claim(node: "b", address: "http://b", for: Self.lease) == nil)
        await second.follow(owner: firstLease)

        await #expect(throws: DispatcherError.decidedElsewhere(owner: firstLease)) {
            try await second.execute(.login("A"))
        }
        let id = try await DispatcherTests.rideScenario(first, clock: clock)
        try await second.catchUp()
        #expect(await second.snapshot == first.snapshot)
        #expect(await second.logSequence == first.logSequence)

        // The owner dies: its lease runs out and the follower takes over with the same state.
        clock.advance(by: Self.lease)
        let secondLease = try #require(try await ownership.claim(node: "b", address: "http://b", for: Self.lease))
        #expect(secondLease.epoch == firstLease.epoch + 1)
        try await second.decide(holding: secondLease)
        #expect(await second.snapshot.state(of: "A") == .offered(id))
        try await second.accept("A")

        // The deposed owner has not noticed: its write is refused and changes nothing.
        let deposedBefore = await first.logSequence
        await #expect(throws: DispatcherError.storage(.notDispatchOwner(lease: firstLease))) {
            try await first.execute(.setUnavailable("B"))
        }
        #expect(try await log.entries(after: 0).count == Int(deposedBefore) + 1, "only b's acceptance was written")
        await first.follow(owner: secondLease)
        try await first.catchUp()
        #expect(await first.snapshot == second.snapshot)
        first.close()
        second.close()
    }

    /// A passenger whose push socket is on the following node is told as
    /// on the deciding one: the follower publishes the notices of every
    /// entry it replays, with the same keys.
    @Test func theFollowerPublishesTheNoticesOfWhatItReplays() async throws {
        let nodes = try await TwoNodes()
        let (owner, follower) = (nodes.first, nodes.second)
        _ = try await DispatcherTests.rideScenario(owner, clock: nodes.clock)
        try await follower.catchUp()
        owner.close()
        follower.close()

        let passenger = try #require(DispatchNotices.recipient(passenger: "p1"))
        func told(_ dispatcher: Dispatcher) async -> [String] {
            var told: [String] = []
            for await notices in dispatcher.notices {
                told += notices.personal.map { "\($0.recipient) \($0.key) \($0.notice.kind)" }
                if notices.personal.contains(where: { $0.recipient == passenger && $0.notice.kind == "offer" }) { break }
            }
            return told
        }
        let fromOwner = await told(owner)
        #expect(fromOwner.contains { $0.hasPrefix(passenger + " ") }, "\(fromOwner)")
        #expect(await told(follower) == fromOwner)
    }
}
