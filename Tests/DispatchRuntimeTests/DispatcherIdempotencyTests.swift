import DispatchCore
import DispatchRuntime
import Fleet
import Foundation
import ServiceClock
import Storage
import Testing

/// A command sent again with the same idempotency key is carried out once
/// (issue 40): on the same dispatcher, at the same moment, after a
/// restart (from the log's entries and from its snapshot), and on the node
/// that took dispatch over from the one that answered first.
@Suite(.timeLimit(.minutes(20))) struct DispatcherIdempotencyTests {
    static let key = "p2 POST /v1/rides 0d9c"
    static let request = DispatchCommand.request("p2", pickup: DispatcherTests.pickup, zone: "230", destination: nil)

    @Test func aKeyedCommandSentTwiceIsCarriedOutOnce() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        _ = try await DispatcherTests.rideScenario(dispatcher, clock: clock)
        let before = try await log.entries(after: 0).count

        async let first = dispatcher.execute(Self.request, idempotencyKey: Self.key)
        async let second = dispatcher.execute(Self.request, idempotencyKey: Self.key)
        let (one, two) = try await (first, second)
        #expect(one == two)
        guard case .requestOpened = one.first else {
            Issue.record("no request opened: \(one)")
            return
        }
        #expect(try await log.entries(after: 0).count == before + 1, "one entry for both")
        #expect(await dispatcher.snapshot.requests.values.filter { $0.passenger == "p2" }.count == 1)

        let unkeyed = try await dispatcher.execute(Self.request)
        #expect(unkeyed != one, "without the key it is a new command (here refused: p2 has an open ride)")
        dispatcher.close()
    }

    @Test(arguments: [nil, 1])
    func keysSurviveARestart(snapshotInterval: Int?) async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock, snapshotInterval: snapshotInterval)
        _ = try await DispatcherTests.rideScenario(dispatcher, clock: clock)
        let answered = try await dispatcher.execute(Self.request, idempotencyKey: Self.key)
        try await dispatcher.execute(.fleet(.appeared("C", zone: "230", at: clock.now)))
        await dispatcher.finishSnapshots()
        dispatcher.close()
        if snapshotInterval != nil {
            #expect(try await log.latestSnapshot()?.sequence == log.entries(after: 0).last?.sequence, "restored from a snapshot alone")
        }

        let reopened = try await Dispatcher(log: log, clock: ManualClock(now: clock.now.addingTimeInterval(60)), snapshotInterval: snapshotInterval)
        let entries = try await log.entries(after: 0).count
        #expect(try await reopened.execute(Self.request, idempotencyKey: Self.key) == answered)
        #expect(try await log.entries(after: 0).count == entries, "nothing written again")
        reopened.close()
    }

    @Test func theNodeThatTakesOverAnswersARetryWithTheFirstDecision() async throws {
        let nodes = try await DispatcherRoleTests.TwoNodes()
        _ = try await DispatcherTests.rideScenario(nodes.first, clock: nodes.clock)
        let answered = try await nodes.first.execute(Self.request, idempotencyKey: Self.key)
        try await nodes.second.catchUp()
        await #expect(throws: DispatcherError.decidedElsewhere(owner: nil)) {
            try await nodes.second.execute(Self.request, idempotencyKey: Self.key)
        }

        nodes.clock.advance(by: DispatcherRoleTests.lease)
        let lease = try #require(try await nodes.ownership.claim(node: "b", address: "http://b", for: DispatcherRoleTests.lease))
        try await nodes.second.decide(holding: lease)
        let retried = try await nodes.second.execute(Self.request, idempotencyKey: Self.key)
        #expect(retried == answered)
        #expect(await nodes.second.snapshot.requests.values.filter { $0.passenger == "p2" }.count == 1)
        nodes.first.close()
        nodes.second.close()
    }
}
