import FixRecords
import Foundation
import GeoKit
import HTTPTypes
import JSONKit
import Storage
import Testing
import Zones
@testable import API

/// The archive's history through the API, as a dispatcher or a planner
/// asks for it: a taxi's track, its daily distances, a zone's fixes.
@Suite(.timeLimit(.minutes(20))) struct FixHistoryAPITests {
    /// 2026-09-21 14:13:20 UTC.
    static let now = APIHarness.now

    static func fix(_ taxi: String, minute: Double, lon: Double = -73.95, lat: Double, device: String? = nil) -> AcceptedFix {
        AcceptedFix(
            taxiId: TaxiID(taxi), deviceId: device ?? "dev-\(taxi)", wireProtocol: .line, time: now.addingTimeInterval(minute * 60),
            coordinate: Coordinate(longitude: lon, latitude: lat), speedKmh: 30, heading: 0, zoneId: nil,
            receivedAt: now.addingTimeInterval(minute * 60))
    }

    /// One hundredth of a degree of latitude, metres, on the sphere distances are measured on.
    static let hundredth = Coordinate.earthRadiusMetres * .pi / 180 / 100

    static func harness(with fixes: [AcceptedFix]) async throws -> (APIHarness, String) {
        let archive = InMemoryFixArchive()
        try archive.append(fixes)
        let harness = try await APIHarness(archive: archive)
        return (harness, try await harness.token(.planner))
    }

    @Test func aTaxisTrackIsAGeoJSONLineStringWithItsLength() async throws {
        let (harness, token) = try await Self.harness(with: [
            Self.fix("T1", minute: 0, lat: 40.75), Self.fix("T1", minute: 1, lat: 40.76), Self.fix("T1", minute: 2, lat: 40.78),
            Self.fix("T1", minute: 200, lat: 40.70), Self.fix("T2", minute: 1, lat: 40.0),
        ])
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/taxis/T1/track?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z", token: token)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/geo+json")
            #expect(answer["type"] == "Feature")
            #expect(answer.body?["geometry"]?["type"] == .string("LineString"))
            #expect(answer.body?["geometry"]?["coordinates"] == .array([[-73.95, 40.75], [-73.95, 40.76], [-73.95, 40.78]].map {
                .array($0.map { .number($0) })
            }))
            #expect(answer.body?["properties"]?["fixes"] == .number(3))
            let metres = answer.body?["properties"]?["lengthMetres"]?.scalarText.flatMap(Double.init) ?? 0
            #expect(abs(metres - 3 * Self.hundredth) < 0.1, "\(metres) m")

            let lonely = try await client.call(.get, "/v1/taxis/T2/track?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z", token: token)
            #expect(lonely.status == .ok)
            #expect(lonely.body?["geometry"] == .null, "one position draws no line")
            #expect(lonely.body?["properties"]?["fixes"] == .number(1))
        }
    }

    @Test func dailyDistancesComePerUTCDayWithTheirTotal() async throws {
        // 14:13 UTC: +580 minutes is past midnight.
        let (harness, token) = try await Self.harness(with: [
            Self.fix("T1", minute: 0, lat: 40.75), Self.fix("T1", minute: 10, lat: 40.77),
            Self.fix("T1", minute: 600, lat: 40.77), Self.fix("T1", minute: 610, lat: 40.78),
        ])
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/taxis/T1/distance?from=2026-09-21T00:00:00Z&to=2026-09-23T00:00:00Z", token: token)
            #expect(answer.status == .ok)
            let days = try answer.list("days")
            #expect(days.map { $0["day"] } == [.string("2026-09-21"), .string("2026-09-22")])
            #expect(days.map { $0["fixes"] } == [.number(2), .number(2)])
            let metres = days.compactMap { $0["metres"]?.scalarText.flatMap(Double.init) }
            #expect(abs(metres[0] - 2 * Self.hundredth) < 0.1 && abs(metres[1] - Self.hundredth) < 0.1, "\(metres)")
            let total = answer["totalMetres"].flatMap(Double.init) ?? 0
            #expect(abs(total - 3 * Self.hundredth) < 0.1)
        }
    }

    @Test func aZonesFixesComePageByPageFollowingTheLink() async throws {
        // Zone 7 of the harness is -73.9...-73.8 × 40.7...40.8; zone 161 meets it along -73.9,
        // a border the rule gives to 7, the smaller id.
        let inside = (0..<4).map { Self.fix("T\($0 % 2)", minute: Double($0), lon: -73.85, lat: 40.75) }
            + [Self.fix("T9", minute: 2, lon: -73.85, lat: 40.75, device: "spare"), Self.fix("T8", minute: 4, lon: -73.9, lat: 40.75)]
        let outside = [Self.fix("T2", minute: 3, lon: -73.95, lat: 40.75), Self.fix("T1", minute: 90, lon: -73.85, lat: 40.75)]
        let (harness, token) = try await Self.harness(with: inside + outside)
        let expected = inside.sorted { FixKey(of: $0) < FixKey(of: $1) }.map { "\($0.taxiId) \(FixTime.iso8601($0.time))" }
        try await harness.test { client in
            var next: String? = "/v1/zones/7/fixes?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z&limit=4"
            var seen: [String] = []
            var pages = 0
            while let uri = next {
                let answer = try await client.call(.get, uri, token: token)
                #expect(answer.status == .ok)
                seen += try answer.list().map { "\($0["taxiId"]?.scalarText ?? "?") \($0["time"]?.scalarText ?? "?")" }
                pages += 1
                next = answer.headers[HTTPField.Name("Link")!].flatMap { link in
                    link.firstIndex(of: "<").flatMap { start in link.firstIndex(of: ">").map { String(link[link.index(after: start)..<$0]) } }
                }
            }
            #expect(pages == 2)
            #expect(seen == expected)
            let neighbour = try await client.call(.get, "/v1/zones/161/fixes?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z", token: token)
            #expect(try neighbour.list().map { $0["taxiId"]?.scalarText } == ["T2"], "the fix on the border is zone 7's alone")
            #expect(try await client.call(.get, "/v1/zones/999/fixes?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z", token: token)
                .status == .notFound)
            let tooLong = try await client.call(.get, "/v1/zones/7/fixes?from=2026-09-01T00:00:00Z&to=2026-09-21T00:00:00Z", token: token)
            #expect(tooLong.status == .unprocessableContent)
            #expect(tooLong["detail"]?.contains("--history-max-days") == true)
            let badCursor = try await client.call(
                .get, "/v1/zones/7/fixes?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z&cursor=%21%21", token: token)
            #expect(badCursor.status == .badRequest)
        }
    }

    /// A fix on zone 161's east edge is zone 7's while the two meet; once a
    /// set where zone 7 lies farther east is in force, it is zone 161's.
    @Test func aZonesFixesFollowTheZoneSetPutInForce() async throws {
        let onTheBorder = Self.fix("T8", minute: 4, lon: -73.9, lat: 40.75)
        let (harness, token) = try await Self.harness(with: [Self.fix("T2", minute: 3, lon: -73.95, lat: 40.75), onTheBorder])
        let uri = "/v1/zones/161/fixes?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z"
        try await harness.test { client in
            #expect(try await client.call(.get, uri, token: token).list().map { $0["taxiId"]?.scalarText } == ["T2"])
            harness.zones.replace(with: try ZoneIndex(zoneSet: ZoneSet(zones: [
                try #require(APIHarness.zoneSet["161"]),
                Zone(id: "7", name: "Astoria", geometry: try .rectangle(BoundingBox(minX: -73.85, minY: 40.7, maxX: -73.8, maxY: 40.8))),
            ])))
            #expect(try await client.call(.get, uri, token: token).list().map { $0["taxiId"]?.scalarText } == ["T2", "T8"])
        }
    }

    /// History is for dispatchers, planners and administrators: a driver or a passenger is refused.
    @Test func driversAndPassengersMayNotReadHistory() async throws {
        let (harness, _) = try await Self.harness(with: [Self.fix("T1", minute: 0, lat: 40.75)])
        let driver = try await harness.token(.driver), passenger = try await harness.token(.passenger)
        try await harness.test { client in
            for path in ["/v1/taxis/T1/track", "/v1/taxis/T1/distance", "/v1/zones/7/fixes"] {
                for token in [driver, passenger] {
                    let answer = try await client.call(.get, path + "?from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z", token: token)
                    #expect(answer.status == .forbidden, "\(path)")
                }
            }
        }
    }
}
