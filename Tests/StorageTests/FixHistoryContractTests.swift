import FixRecords
import Foundation
import GeoKit
import Testing
import Zones
@testable import Storage

/// The `FixHistory` contract (a taxi's track, a zone's fixes, daily
/// distances), run against every archive: the API's history answers must
/// not depend on the store behind it.
@Suite(.timeLimit(.minutes(20))) struct FixHistoryContractTests {
    static let base = Date(timeIntervalSince1970: 1_790_035_200)  // 2026-09-22 00:00 UTC

    static func fix(_ taxi: String, minute: Double, lon: Double = -73.98, lat: Double, device: String? = nil) -> AcceptedFix {
        AcceptedFix(
            taxiId: TaxiID(taxi), deviceId: device ?? "imei-\(taxi)", wireProtocol: .line, time: base.addingTimeInterval(minute * 60),
            coordinate: Coordinate(longitude: lon, latitude: lat), speedKmh: 30, heading: 0, zoneId: nil,
            receivedAt: base.addingTimeInterval(minute * 60 + 1))
    }

    /// One hundredth of a degree of latitude on the sphere of the WGS84 mean radius, metres.
    static let hundredthOfADegree = Coordinate.earthRadiusMetres * .pi / 180 / 100

    /// A square zone from -74.00,40.70 to -73.90,40.80.
    static func squareZone() throws -> Zone {
        let ring = [(-74.0, 40.7), (-73.9, 40.7), (-73.9, 40.8), (-74.0, 40.8), (-74.0, 40.7)]
            .map { Coordinate(longitude: $0.0, latitude: $0.1) }
        return Zone(id: "7", name: "Square", geometry: try Geometry.polygon(exterior: ring))
    }

    @Test(arguments: FixArchiveContractTests.implementations)
    func aTrackFollowsTheTaxiOldestFirstAndMeasuresItsLength(implementation: String) async throws {
        let (archive, cleanUp) = try FixArchiveContractTests.make(implementation)
        defer { cleanUp() }
        try archive.append([Self.fix("T1", minute: 2, lat: 40.77), Self.fix("T1", minute: 0, lat: 40.75), Self.fix("T2", minute: 1, lat: 40.0)])
        try archive.append([Self.fix("T1", minute: 1, lat: 40.76), Self.fix("T1", minute: 90, lat: 41)])
        let track = try await archive.track(of: "T1", in: Self.base...Self.base.addingTimeInterval(3600), limit: 100)
        #expect(track.positions.map(\.latitude) == [40.75, 40.76, 40.77])
        #expect(abs(track.lengthMetres - 2 * Self.hundredthOfADegree) < 0.01, "\(track.lengthMetres) m")
        let limited = try await archive.track(of: "T1", in: Self.base...Self.base.addingTimeInterval(3600), limit: 2)
        #expect(limited.positions.map(\.latitude) == [40.75, 40.76])
        let single = try await archive.track(of: "T2", in: Self.base...Self.base.addingTimeInterval(3600), limit: 100)
        #expect(single == FixTrack(positions: [Coordinate(longitude: -73.98, latitude: 40.0)], lengthMetres: 0))
        #expect(try await archive.track(of: "T9", in: Self.base...Self.base.addingTimeInterval(3600), limit: 100).positions.isEmpty)
    }

    @Test(arguments: FixArchiveContractTests.implementations)
    func dailyDistancesSplitAtMidnightUTC(implementation: String) async throws {
        let (archive, cleanUp) = try FixArchiveContractTests.make(implementation)
        defer { cleanUp() }
        // Day one: 40.70 → 40.72 → 40.73; day two: 40.73 → 40.74 and one fix alone the day after.
        try archive.append([
            Self.fix("T1", minute: 600, lat: 40.70), Self.fix("T1", minute: 700, lat: 40.72), Self.fix("T1", minute: 1439, lat: 40.73),
            Self.fix("T1", minute: 1441, lat: 40.73), Self.fix("T1", minute: 1500, lat: 40.74), Self.fix("T1", minute: 2900, lat: 40.5),
            Self.fix("T2", minute: 650, lat: 40.0),
        ])
        let days = try await archive.dailyDistances(of: "T1", in: Self.base...Self.base.addingTimeInterval(3 * 86_400))
        #expect(days.map(\.day) == [0, 1, 2].map { Self.base.addingTimeInterval($0 * 86_400) })
        #expect(days.map(\.fixes) == [3, 2, 1])
        #expect(abs(days[0].metres - 3 * Self.hundredthOfADegree) < 0.01, "\(days[0].metres) m")
        #expect(abs(days[1].metres - Self.hundredthOfADegree) < 0.01, "\(days[1].metres) m")
        #expect(days[2].metres == 0)
        let window = try await archive.dailyDistances(of: "T1", in: Self.base.addingTimeInterval(690 * 60)...Self.base.addingTimeInterval(86_400))
        #expect(window.map(\.fixes) == [2], "only the window's fixes count")
    }

    @Test(arguments: FixArchiveContractTests.implementations)
    func aZoneGivesTheFixesItsPolygonCoversPageByPage(implementation: String) async throws {
        let (archive, cleanUp) = try FixArchiveContractTests.make(implementation)
        defer { cleanUp() }
        let zone = try Self.squareZone()
        let inside = [
            Self.fix("T2", minute: 1, lat: 40.75), Self.fix("T1", minute: 1, lat: 40.76),
            Self.fix("T1", minute: 1, lat: 40.74, device: "imei-spare"), Self.fix("T3", minute: 5, lon: -74.0, lat: 40.75),
            Self.fix("T1", minute: 9, lat: 40.79),
        ]
        let outside = [
            Self.fix("T1", minute: 2, lon: -74.01, lat: 40.75), Self.fix("T2", minute: 3, lat: 40.81),
            Self.fix("T2", minute: 120, lat: 40.75),
        ]
        try archive.append(inside + outside)
        let window = Self.base...Self.base.addingTimeInterval(3600)
        let expected = inside.sorted { FixKey(of: $0) < FixKey(of: $1) }
        #expect(expected.map(\.taxiId) == ["T1", "T1", "T2", "T3", "T1"], "time, then taxi, then device")
        #expect(try await archive.fixes(inside: ZoneTerritory(zone: zone), in: window, after: nil, limit: 100) == expected, "a fix on the border is inside")
        var pages: [[AcceptedFix]] = []
        var after: FixKey?
        repeat {
            let page = try await archive.fixes(inside: ZoneTerritory(zone: zone), in: window, after: after, limit: 2)
            pages.append(page)
            after = page.last.map(FixKey.init(of:))
        } while pages.last?.count == 2
        #expect(pages.map(\.count) == [2, 2, 1])
        #expect(pages.flatMap { $0 } == expected, "pages follow one another without gaps or repeats")
    }

    /// A week-long window whose fixes are hours apart: pages cross hours
    /// and empty stretches, including a fix on the last millisecond.
    @Test(arguments: FixArchiveContractTests.implementations)
    func pagesOfALongWindowFollowOneAnotherAcrossHours(implementation: String) async throws {
        let (archive, cleanUp) = try FixArchiveContractTests.make(implementation)
        defer { cleanUp() }
        let zone = try Self.squareZone()
        let minutes = [0, 59, 60, 61, 179, 180, 600, 601, 2_000, 10_080]
        let inside = minutes.map { Self.fix("T\($0 % 3)", minute: Double($0), lat: 40.75) }
        let outside = minutes.map { Self.fix("T9", minute: Double($0), lon: -74.01, lat: 40.75) }
        try archive.append(outside + inside)
        let window = Self.base...Self.base.addingTimeInterval(7 * 86_400)
        for limit in [1, 3, 4, 100] {
            var pages: [[AcceptedFix]] = []
            var after: FixKey?
            repeat {
                let page = try await archive.fixes(inside: ZoneTerritory(zone: zone), in: window, after: after, limit: limit)
                pages.append(page)
                after = page.last.map(FixKey.init(of:))
            } while pages.last?.count == limit
            #expect(pages.flatMap { $0 } == inside, "pages of \(limit)")
        }
    }

    @Test(arguments: FixArchiveContractTests.implementations)
    func aFixOnASharedBorderIsInTheZoneTheBorderRuleGivesIt(implementation: String) async throws {
        let (archive, cleanUp) = try FixArchiveContractTests.make(implementation)
        defer { cleanUp() }
        // Zone 3 from -74.10 to -74.00 meets the square zone 7 along longitude -74.00; zone 12
        // from -73.90 to -73.80 meets it along -73.90 and comes after it in the set.
        func square(_ id: ZoneID, fromLongitude west: Double) throws -> Zone {
            let ring = [(west, 40.7), (west + 0.1, 40.7), (west + 0.1, 40.8), (west, 40.8), (west, 40.7)]
                .map { Coordinate(longitude: $0.0, latitude: $0.1) }
            return Zone(id: id, name: "Zone \(id)", geometry: try Geometry.polygon(exterior: ring))
        }
        let zoneSet = ZoneSet(zones: [try square("12", fromLongitude: -73.9), try Self.squareZone(), try square("3", fromLongitude: -74.1)])
        let onWestBorder = Self.fix("T1", minute: 1, lon: -74.0, lat: 40.75)
        let onEastBorder = Self.fix("T2", minute: 2, lon: -73.9, lat: 40.75)
        let insideSeven = Self.fix("T3", minute: 3, lon: -73.95, lat: 40.75)
        let insideThree = Self.fix("T4", minute: 4, lon: -74.05, lat: 40.75)
        try archive.append([onWestBorder, onEastBorder, insideSeven, insideThree])
        let window = Self.base...Self.base.addingTimeInterval(3600)
        func answer(_ id: ZoneID) async throws -> [TaxiID] {
            let territory = try #require(ZoneTerritory(id, in: zoneSet))
            return try await archive.fixes(inside: territory, in: window, after: nil, limit: 100).map(\.taxiId)
        }
        #expect(try await answer("3") == ["T1", "T4"], "zone 3 comes first: the shared border is its own")
        #expect(try await answer("7") == ["T2", "T3"], "zone 7 cedes its west border to 3 and keeps its east border from 12")
        #expect(try await answer("12") == [], "zone 12 cedes its west border to 7")
        #expect(ZoneTerritory("99", in: zoneSet) == nil)
    }
}
