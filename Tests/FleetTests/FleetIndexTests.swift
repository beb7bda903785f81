import Fleet
import Foundation
import GeoKit
import Testing
import Zones

@Suite struct FleetIndexTests {
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
}
