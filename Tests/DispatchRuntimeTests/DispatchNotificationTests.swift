import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Storage
import Testing
import Zones

/// SPEC D7: what the dispatcher tells whom, stored with the command that
/// decided it and handed over once.
@Suite(.timeLimit(.minutes(20))) struct DispatchNotificationTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// Two free taxis in zone 230 and a ride request of passenger `p1`.
    private func offeredRide(_ dispatcher: Dispatcher, clock: ManualClock, passenger: PassengerID = "p1") async throws -> RideRequestID {
        for taxi: TaxiID in ["A", "B"] {
            try await dispatcher.execute(.fleet(.appeared(taxi, zone: "230", at: clock.now)))
            try await dispatcher.execute(.login(taxi))
            try await dispatcher.execute(.setAvailable(taxi))
            clock.advance(by: .seconds(1))
        }
        let events = try await dispatcher.execute(.request(passenger, pickup: DispatcherTests.pickup, zone: "230", destination: nil))
        guard case .requestOpened(let id, _, _) = events.first else { throw DispatcherError.invalid("no request opened: \(events)") }
        return id
    }

    @Test func theOfferIsStoredForItsDriverAndThePassengerHearsOfTheTaxiAndItsETA() async throws {
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: clock)
        defer { dispatcher.close() }
        let id = try await offeredRide(dispatcher, clock: clock)
        let driver = try await dispatcher.undeliveredNotices(for: "taxi:A", limit: 10)
        let offer = try #require(driver.last?.notice)
        #expect(offer.kind == "offer")
        #expect(offer.rideId == id.description)
        #expect(offer.pickup == NoticePoint(DispatcherTests.pickup))
        #expect(offer.expiresAt == clock.now.addingTimeInterval(15), "the default 15 s to answer, as a wall-clock time")
        #expect(driver.map(\.notice.kind) == ["taxi_joined_queue", "offer"])

        try await dispatcher.execute(.accept("A", eta: .seconds(240)))
        let passenger = try await dispatcher.undeliveredNotices(for: "passenger:p1", limit: 10).map(\.notice)
        #expect(passenger.map(\.kind) == ["offer", "taxi_assigned"])
        #expect(passenger.last?.taxiId == "A")
        #expect(passenger.last?.etaS == 240)
        #expect(passenger.map(\.id) == passenger.map(\.id).sorted { $0! < $1! }, "ids grow with time")
    }

    @Test func aNotificationHandedOverIsNotHandedOverAgainEvenAfterARestart() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        _ = try await offeredRide(dispatcher, clock: clock)
        let told = try await dispatcher.undeliveredNotices(for: "taxi:A", limit: 10)
        try await dispatcher.markDelivered([(recipient: "taxi:A", through: try #require(told.first).key)])
        clock.advance(by: .seconds(15))
        try await dispatcher.execute(.tick)
        dispatcher.close()

        let reopened = try await Dispatcher(log: log, clock: ManualClock(now: clock.now))
        defer { reopened.close() }
        let left = try await reopened.undeliveredNotices(for: "taxi:A", limit: 10).map(\.notice.kind)
        #expect(left == ["offer", "offer_timed_out", "taxi_joined_queue"], "the first queue place was handed over; the offer, its timeout and the place at the back were not")
    }

    /// A notification stored when ids were `sequence.index` text is still
    /// told, with the whole-number id its place gives it.
    @Test func aNotificationStoredWithATextIDIsToldWithItsNumber() async throws {
        let log = InMemoryDispatchLog()
        let dispatcher = try await Dispatcher(log: log, clock: ManualClock(now: Self.start))
        defer { dispatcher.close() }
        let payload = Data(#"{"at":"2026-09-21T14:13:20Z","id":"3.1","kind":"offer","rideId":"R1","taxiId":"A"}"#.utf8)
        try log.write([.notification(StoredNotification(key: NotificationKey(sequence: 3, index: 1), recipient: "taxi:A", payload: payload))])
        let told = try await dispatcher.undeliveredNotices(for: "taxi:A")
        #expect(told.map(\.notice.id) == [3_000_001])
        #expect(told.map(\.notice.kind) == ["offer"])
    }

    @Test func aPhoneCallerHasNothingStoredButTheBoardHearsOfTheRequest() async throws {
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: clock)
        _ = try await offeredRide(dispatcher, clock: clock, passenger: "phone:+12125550100")
        #expect(try await dispatcher.undeliveredNotices(for: "passenger:phone:+12125550100", limit: 10).isEmpty)
        dispatcher.close()
        var board: [String] = []
        for await notices in dispatcher.notices {
            board += notices.board.map(\.kind)
            if board.contains("offer") { break }
        }
        #expect(board.suffix(4) == ["request_opened", "offer", "driver_state", "taxi_left_queue"])
    }

    @Test func aQueuedPassengerIsToldThePlaceAndTheTimeToConfirmBy() async throws {
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: clock)
        defer { dispatcher.close() }
        try await dispatcher.execute(.request("p2", pickup: DispatcherTests.pickup, zone: "230", destination: nil))
        let queued = try #require(try await dispatcher.undeliveredNotices(for: "passenger:p2", limit: 10).first?.notice)
        #expect(queued.kind == "queued")
        #expect(queued.queuePosition == 1)
        #expect(queued.zoneId == "230")
        #expect(queued.confirmBy == clock.now.addingTimeInterval(30))
    }
}
