import GeoKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneDiffTests {
    private func diff() throws -> ZoneDiff {
        let old = try ZoneFileLoader.load(path: TestData.zonesFixture("grid-2x2.geojson")).zoneSet
        let new = try ZoneFileLoader.load(path: TestData.fixture("diff-new.geojson")).zoneSet
        return try ZoneDiff(old: old, new: new)
    }

    /// Zone 1 renamed, 2 grown east by half, 3 gone, 5 new in its place, 4 untouched.
    @Test func namesEveryChangeInIdOrder() throws {
        let diff = try diff()
        #expect(diff.changes.map(\.id) == ["1", "2", "3", "5"])
        #expect(diff.changes[0] == .renamed(id: "1", from: "Zone 1", to: "Zone One"))
        guard case .removed(_, "Zone 3", let removedArea) = diff.changes[2],
              case .added(_, "Zone 5", let addedArea) = diff.changes[3] else {
            Issue.record("zone 3 not removed or 5 not added"); return
        }
        #expect(abs(removedArea - addedArea) < 1)
        #expect(diff.unchanged == 1)
        #expect(diff.report.last == "1 added, 1 removed, 1 renamed, 1 reshaped, 1 unchanged")
    }

    /// The reshaped zone's area grows by half, all of it new ground.
    @Test func reshapedZoneHasItsAreaChange() throws {
        guard case .reshaped(_, _, let old, let new, let redrawn) = try diff().changes[1] else {
            Issue.record("zone 2 not reshaped"); return
        }
        #expect(abs(new / old - 1.5) < 0.001)
        #expect(abs(redrawn - (new - old)) < 1)
        #expect(try diff().changes[1].text.contains("(+447"))
        #expect(try diff().changes[1].text.contains("m², +50.0 %)"))
    }

    /// A file compared with itself has no changes.
    @Test func aFileComparedWithItselfHasNoChanges() throws {
        let zones = try ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet
        let diff = try ZoneDiff(old: zones, new: zones)
        #expect(diff.changes.isEmpty)
        #expect(diff.unchanged == 69)
    }
}

@Suite(.timeLimit(.minutes(20))) struct TaxiRezoningTests {
    /// A taxi in zone 3 is in zone 5 of the new set, one just east of zone 2
    /// enters the grown zone 2, one in zone 4 stays.
    @Test func countsTheTaxisWhoseZoneChanges() throws {
        let old = try ZoneFileLoader.load(path: TestData.zonesFixture("grid-2x2.geojson")).zoneSet
        let new = try ZoneFileLoader.load(path: TestData.fixture("diff-new.geojson")).zoneSet
        let taxis = [
            ZoneServiceClient.TaxiPosition(taxiId: "TX1", position: Coordinate(longitude: 7.405, latitude: 43.715)),
            ZoneServiceClient.TaxiPosition(taxiId: "TX2", position: Coordinate(longitude: 7.422, latitude: 43.705)),
            ZoneServiceClient.TaxiPosition(taxiId: "TX3", position: Coordinate(longitude: 7.415, latitude: 43.715)),
        ]
        let rezoning = try TaxiRezoning(taxis: taxis, old: old, new: new)
        #expect(rezoning.moves == [.init(taxiId: "TX1", from: "3", to: "5"), .init(taxiId: "TX2", from: nil, to: "2")])
        #expect(rezoning.report == ["2 of 3 taxis would change zone", "TX1: 3 → 5", "TX2: outside → 2"])
    }
}
