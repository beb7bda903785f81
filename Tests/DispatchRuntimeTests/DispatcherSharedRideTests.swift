import DispatchCore
@testable import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import ServiceClock
import Storage
import Testing
import Zones

/// SPEC D10 on the dispatcher: a shared request is matched before it
/// reaches the engine and the match is logged, so a restart's replay gives
/// the same itinerary; a shared taxi at its next pickup has arrived for
/// that rider.
@Suite(.timeLimit(.minutes(20))) struct DispatcherSharedRideTests {
    static let router = SharedRideMatcherTests.router
    static func corner(_ column: Int, _ row: Int) -> Coordinate { SharedRideMatcherTests.corner(column, row) }

    /// A dispatcher on the grid with taxi A at `position`, free in zone
    /// 230, 60 s from any pickup (and B, 30 s from any, when placed).
    static func dispatcher(
        log: any DispatchLog, clock: ManualClock, taxiAt position: Coordinate, otherTaxiAt other: Coordinate? = nil
    ) async throws -> Dispatcher {
        let dispatcher = try await Dispatcher(
            log: log, clock: clock, etas: FixedETAs(seconds: ["A": 60, "B": 30]),
            positions: FixedPositions(positions: ["A": position, "B": other ?? position]), sharing: SharedRideMatcher(router: router))
        try await DispatcherETATests.freeTaxi("A", in: "230", dispatcher, clock: clock)
        return dispatcher
    }

    /// `passenger` asks to share from `pickup` to `destination`.
    static func share(
        _ passenger: PassengerID, _ pickup: Coordinate, _ destination: Coordinate, on dispatcher: Dispatcher
    ) async throws -> [DispatchEvent] {
        let direct = try SharedRideMatcherTests.drive(pickup, destination)
        return try await dispatcher.requestShared(passenger, pickup: pickup, zone: "230", destination: destination, directTrip: direct)
    }

    @Test func aRiderGoingTheSameWayJoinsAndARestartReplaysTheSameItinerary() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(log: log, clock: clock, taxiAt: Self.corner(0, 10))
        let first = try await Self.share("p1", Self.corner(2, 10), Self.corner(15, 10), on: dispatcher)
        #expect(first.contains { if case .offerMade(_, "A", _) = $0 { true } else { false } }, "served alone at first: \(first)")
        try await dispatcher.accept("A")
        let second = try await Self.share("p2", Self.corner(4, 10), Self.corner(12, 10), on: dispatcher)
        let joined = second.compactMap { event -> Duration? in
            if case .riderJoined(_, "A", let eta?) = event { return eta }
            return nil
        }.first
        let eta = try #require(joined, "p2 joined A: \(second)")
        #expect(eta > .seconds(60), "after p1's pickup, 60 s away")
        let itinerary = await dispatcher.snapshot.taxis["A"]?.itinerary ?? []
        #expect(itinerary.map(\.kind) == [.pickup, .pickup, .dropoff, .dropoff], "both picked up on the way east: \(itinerary)")
        await dispatcher.waitForWrites()
        dispatcher.close()
        let zone = try await DispatcherStatisticsTests.totals(log, "zone/")["zone/230"] ?? [:]
        #expect(zone["shared_requests"] == 2 && zone["shared_joined"] == 1 && zone["requests"] == 2, "\(zone)")

        let restarted = try await Dispatcher(log: log, clock: ManualClock(now: clock.now), sharing: SharedRideMatcher(router: Self.router))
        #expect(await restarted.snapshot.taxis["A"]?.itinerary == itinerary)
        #expect(await restarted.snapshot.requests[itinerary[1].ride]?.phase == .assigned(taxi: "A", eta: eta))
        restarted.close()
    }

    /// The shared taxi could fetch p2 after p1's trip, 7 minutes on; a free
    /// taxi 30 s away is more than 2 minutes sooner, so p2 rides alone.
    @Test func aRiderAFreeTaxiWouldFetchMuchSoonerIsServedAlone() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(log: InMemoryDispatchLog(), clock: clock, taxiAt: Self.corner(0, 10))
        _ = try await Self.share("p1", Self.corner(2, 10), Self.corner(19, 10), on: dispatcher)
        try await dispatcher.accept("A")
        let matched = try #require(await dispatcher.matchSharedRider(
            from: Self.corner(19, 0), to: Self.corner(0, 19), seats: 1,
            directTrip: try SharedRideMatcherTests.drive(Self.corner(19, 0), Self.corner(0, 19)), now: dispatcher.engineTime))
        #expect(matched.insertion.pickupIndex == 2, "after p1's drop-off")
        try await DispatcherETATests.freeTaxi("B", in: "230", dispatcher, clock: clock)
        let back = try await Self.share("p2", Self.corner(19, 0), Self.corner(0, 19), on: dispatcher)
        #expect(!back.contains { if case .riderJoined = $0 { true } else { false } }, "\(back)")
        #expect(back.contains { if case .offerMade(_, "B", _) = $0 { true } else { false } }, "offered to the free taxi: \(back)")
        dispatcher.close()
    }

    @Test func aSharedTaxiAtItsNextPickupHasArrivedForThatRider() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let pickup = Self.corner(2, 10)
        let dispatcher = try await Self.dispatcher(log: InMemoryDispatchLog(), clock: clock, taxiAt: pickup)
        let opened = try await Self.share("p1", pickup, Self.corner(15, 10), on: dispatcher)
        guard case .requestOpened(let id, _, _) = opened.first else { throw DispatcherError.invalid("no request: \(opened)") }
        try await dispatcher.accept("A")
        let phase = await DispatcherETATests.runTimers(of: dispatcher) { snapshot in
            if case .arrived = snapshot.requests[id]?.phase { true } else { false }
        }.requests[id]?.phase
        #expect(phase.map { if case .arrived("A", _) = $0 { true } else { false } } == true, "\(String(describing: phase))")
        dispatcher.close()
    }
}
