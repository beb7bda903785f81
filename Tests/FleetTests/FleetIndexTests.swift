import FixRecords
import Fleet
import Foundation
import GeoKit
import Testing
import Zones

@Suite(.timeLimit(.minutes(20))) struct FleetIndexTests {
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    func position(_ taxi: TaxiID, at seconds: Double, zone: ZoneID?, longitude: Double = -73.98) -> TaxiPosition {
        TaxiPosition(taxiId: taxi, coordinate: Coordinate(longitude: longitude, latitude: 40.75),
                     time: start.addingTimeInterval(seconds), speedKmh: 20, heading: 90, zoneId: zone)
    }

    @Test func keepsTheLatestPositionPerTaxi() {
        let fleet = FleetIndex()
        #expect(fleet.update(position("A", at: 0, zone: "230"), heardAt: start))
        #expect(fleet.update(position("A", at: 30, zone: "161", longitude: -73.97), heardAt: start.addingTimeInterval(30)))
        let entry = fleet.entry(for: "A", now: start.addingTimeInterval(31))
        #expect(entry?.position.zoneId == "161")
        #expect(entry?.position.coordinate.longitude == -73.97)
        #expect(entry?.stale == false)
    }

    /// An out-of-order fix does not move the taxi back.
    @Test func olderFixDoesNotMoveTheTaxiBack() {
        let fleet = FleetIndex()
        fleet.update(position("A", at: 60, zone: "161"), heardAt: start.addingTimeInterval(60))
        #expect(!fleet.update(position("A", at: 30, zone: "230"), heardAt: start.addingTimeInterval(61)))
        #expect(fleet.entry(for: "A", now: start.addingTimeInterval(61))?.position.zoneId == "161")
        #expect(fleet.entries(inZone: "230", now: start).isEmpty)
    }

    /// Silent for longer than the limit (default 90 s): stale.
    @Test func silentTaxiBecomesStale() {
        let fleet = FleetIndex()
        fleet.update(position("A", at: 0, zone: "230"), heardAt: start)
        #expect(fleet.entry(for: "A", now: start.addingTimeInterval(90))?.stale == false)
        #expect(fleet.entry(for: "A", now: start.addingTimeInterval(91))?.stale == true)
        let strict = FleetIndex(staleAfter: 10)
        strict.update(position("A", at: 0, zone: "230"), heardAt: start)
        #expect(strict.entry(for: "A", now: start.addingTimeInterval(11))?.stale == true)
    }

    @Test func listsTaxisByZoneAndFollowsThemAcrossZones() {
        let fleet = FleetIndex()
        fleet.update([position("B", at: 0, zone: "230"), position("A", at: 0, zone: "230"),
                      position("C", at: 0, zone: nil)].map { ($0, start) })
        #expect(fleet.entries(inZone: "230", now: start).map(\.position.taxiId) == ["A", "B"])
        fleet.update(position("A", at: 30, zone: "161"), heardAt: start.addingTimeInterval(30))
        #expect(fleet.entries(inZone: "230", now: start).map(\.position.taxiId) == ["B"])
        #expect(fleet.entries(inZone: "161", now: start).map(\.position.taxiId) == ["A"])
        #expect(fleet.count == 3)
        #expect(fleet.entry(for: "nobody", now: start) == nil)
    }

    /// Each taxi that appeared or moved is handed over once, with its latest
    /// coordinate; one that did not move since is not handed over again.
    @Test func movedTaxisAreHandedOverOnceUntilTheyMoveAgain() {
        let fleet = FleetIndex()
        fleet.update(position("A", at: 0, zone: "230"), heardAt: start)
        fleet.update(position("B", at: 0, zone: "230"), heardAt: start)
        fleet.update(position("A", at: 10, zone: "230", longitude: -73.97), heardAt: start.addingTimeInterval(10))
        let first = fleet.takeMoved()
        #expect(first.map(\.taxi) == ["A", "B"])
        #expect(first.first?.coordinate.longitude == -73.97)
        #expect(fleet.takeMoved().isEmpty)
        fleet.update(position("B", at: -5, zone: "230"), heardAt: start.addingTimeInterval(11))
        #expect(fleet.takeMoved().isEmpty, "an older fix moves nobody")
        fleet.update(position("B", at: 20, zone: "161", longitude: -73.96), heardAt: start.addingTimeInterval(20))
        #expect(fleet.takeMoved().map(\.taxi) == ["B"])
    }
}

/// The fleet's changes as events: what the dispatch engine will read.
@Suite(.timeLimit(.minutes(20))) struct FleetEventTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    func position(_ taxi: TaxiID, second: Double, zone: ZoneID?) -> TaxiPosition {
        TaxiPosition(
            taxiId: taxi, coordinate: Coordinate(longitude: -73.98, latitude: 40.75), time: Self.start.addingTimeInterval(second),
            speedKmh: 20, heading: 90, zoneId: zone)
    }

    /// The events published so far, without waiting for more.
    func drain(_ fleet: FleetIndex, count: Int) async -> [FleetEvent] {
        var received: [FleetEvent] = []
        for await event in fleet.events {
            received.append(event)
            if received.count == count { break }
        }
        return received
    }

    @Test func appearingChangingZoneGoingStaleAndComingBackArePublished() async {
        let fleet = FleetIndex(staleAfter: 90)
        let at = { Self.start.addingTimeInterval($0) }
        fleet.update(position("T1", second: 0, zone: "161"), heardAt: at(0))
        fleet.update(position("T1", second: 30, zone: "161"), heardAt: at(30))
        fleet.update(position("T1", second: 60, zone: "7"), heardAt: at(60))
        #expect(fleet.sweepStale(now: at(100)) == [])
        #expect(fleet.sweepStale(now: at(200)) == ["T1"])
        #expect(fleet.sweepStale(now: at(300)) == [], "a stale taxi is reported once")
        fleet.update(position("T1", second: 310, zone: "7"), heardAt: at(310))
        let events = await drain(fleet, count: 4)
        #expect(events == [
            .appeared("T1", zone: "161", at: at(0)),
            .changedZone("T1", from: "161", to: "7", at: at(60)),
            .wentStale("T1", lastHeard: at(60)),
            .cameBack("T1", zone: "7", at: at(310)),
        ])
    }

    /// On a node of several, every taxi's newest fix is read from the
    /// archive each second: a silent taxi's last fix, read again, is no
    /// news and leaves it silent, or every silent taxi would come back and
    /// go stale again each second, two dispatch log entries each time.
    @Test func aSilentTaxisLastFixReadAgainDoesNotBringItBack() async {
        let fleet = FleetIndex(staleAfter: 90)
        let at = { Self.start.addingTimeInterval($0) }
        fleet.update(position("T1", second: 0, zone: "161"), heardAt: at(0))
        #expect(fleet.sweepStale(now: at(100)) == ["T1"])
        for _ in 0..<3 {
            fleet.update(position("T1", second: 0, zone: "161"), heardAt: at(0))
            #expect(fleet.sweepStale(now: at(101)) == [], "still silent, not found so again")
        }
        fleet.update(position("T1", second: 200, zone: "161"), heardAt: at(200))
        let events = await drain(fleet, count: 3)
        #expect(events == [
            .appeared("T1", zone: "161", at: at(0)),
            .wentStale("T1", lastHeard: at(0)),
            .cameBack("T1", zone: "161", at: at(200)),
        ])
    }

    @Test func aNewZoneSetRezonesEveryTaxi() async {
        let fleet = FleetIndex(staleAfter: 90)
        fleet.update(position("T1", second: 0, zone: "161"), heardAt: Self.start)
        fleet.update(position("T2", second: 0, zone: "7"), heardAt: Self.start)
        let moved = fleet.rezone(at: Self.start) { _ in "7" }
        #expect(moved == 1)
        #expect(fleet.entries(inZone: "7", now: Self.start).map(\.position.taxiId).sorted() == ["T1", "T2"])
        #expect(fleet.entries(inZone: "161", now: Self.start).isEmpty)
        let events = await drain(fleet, count: 3)
        #expect(events.last == .changedZone("T1", from: "161", to: "7", at: Self.start))
    }

    /// A fix zoned under the old set, reaching the index after the swap,
    /// takes its zone under the new one; a fix heard after the swap keeps
    /// the zone ingest gave it.
    @Test func aFixHeardBeforeTheSwapTakesItsZoneUnderTheNewSet() {
        let fleet = FleetIndex(staleAfter: 90)
        fleet.update(position("T1", second: 0, zone: "161"), heardAt: Self.start)
        fleet.rezone(at: Self.start.addingTimeInterval(10)) { _ in "7" }
        fleet.update(position("T1", second: 5, zone: "161"), heardAt: Self.start.addingTimeInterval(5))
        #expect(fleet.latestPosition(of: "T1")?.zoneId == "7")
        fleet.update(position("T1", second: 20, zone: "230"), heardAt: Self.start.addingTimeInterval(20))
        #expect(fleet.latestPosition(of: "T1")?.zoneId == "230")
    }
}
