import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Testing
import Zones

/// A party needs a taxi with as many seats: the first such taxi of the
/// queue is offered it (those ahead with fewer keep their places), and a
/// smaller party behind it is not held up by it; a booking likewise gets
/// the first taxi it fits in. The seats survive the log's replay.
@Suite(.timeLimit(.minutes(20))) struct PartySeatsTests {
    @Test func aPartyGoesToTheFirstTaxiWithRoomAndTheOthersKeepTheirPlaces() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        harness.clock.advance(by: .seconds(1))
        try harness.availableTaxi("B", in: "230", seats: 6)
        harness.clock.advance(by: .seconds(1))
        try harness.availableTaxi("C", in: "230")
        let party = harness.request("p6", in: "230", seats: 6)
        let id = try #require(party.id)
        #expect(harness.state("B") == .offered(id), "the 4-seat taxi ahead is passed over")
        #expect(harness.queue("230") == ["A", "C"], "and keeps its place")
        #expect(harness.snapshot.requests[id]?.seats == 6)
        let single = try #require(harness.request("p1", in: "230").id)
        #expect(harness.state("A") == .offered(single), "a single passenger still gets the head")
    }

    @Test func aPartyWaitsForATaxiItFitsInWithoutHoldingUpSmallerOnes() throws {
        var harness = DispatchHarness()
        let party = try #require(harness.request("p5", in: "230", seats: 5).id)
        let couple = try #require(harness.request("p2", in: "230", seats: 2).id)
        try harness.availableTaxi("A", in: "230")
        #expect(harness.state("A") == .offered(couple), "the first taxi seats 4: the couple behind the party takes it")
        harness.clock.advance(by: .seconds(1))
        try harness.availableTaxi("V", in: "230", seats: 7)
        #expect(harness.state("V") == .offered(party), "the van takes the party")
    }

    @Test func aBookingGetsTheFirstTaxiItFitsIn() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        harness.clock.advance(by: .seconds(1))
        try harness.availableTaxi("V", in: "230", seats: 8)
        let pickupAt = harness.clock.now.addingTimeInterval(3 * 3600)
        let events = harness.engine.reserve(
            passenger: "p8", origin: DispatchHarness.pickup, zone: "230", destination: DispatchHarness.pickup, pickupAt: pickupAt,
            seats: 8, now: harness.now, wall: harness.clock.now)
        guard case .reservationMade(let id, _, _) = events.first else {
            Issue.record("not booked: \(events)")
            return
        }
        #expect(harness.snapshot.reservations[id]?.seats == 8)
        let allocated = harness.advance(3 * 3600 - 600)
        #expect(allocated.contains { if case .reservationAllocated(id, "V", _) = $0 { true } else { false } }, "\(allocated)")
        #expect(harness.queue("230") == ["A"])
    }

    @Test func theSeatsSurviveTheLogsReplay() throws {
        let commands: [DispatchCommand] = [
            .fleet(.appeared("V", zone: "230", at: Date(timeIntervalSince1970: 0))), .login("V", seats: 7), .setAvailable("V"),
            .fleet(.appeared("A", zone: "230", at: Date(timeIntervalSince1970: 0))), .login("A"), .setAvailable("A"),
            .request("p6", pickup: DispatchHarness.pickup, zone: "230", destination: nil, seats: 6),
        ]
        var engine = DispatchEngine()
        for (index, command) in commands.enumerated() {
            let decoded = try JSONDecoder().decode(DispatchCommand.self, from: JSONEncoder().encode(command))
            #expect(decoded == command)
            _ = try engine.execute(decoded, now: .seconds(index), wall: Date(timeIntervalSince1970: Double(index)))
        }
        #expect(engine.snapshot.taxis["V"]?.seats == 7)
        #expect(engine.snapshot.taxis["A"]?.seats == 4, "the registry's default")
        #expect(engine.snapshot.state(of: "V") == .offered(RideRequestID(1)))
        let restored = try JSONDecoder().decode(DispatchSnapshot.self, from: JSONEncoder().encode(engine.snapshot))
        #expect(restored == engine.snapshot)
    }
}
