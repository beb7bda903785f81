import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import MytaxiServer
import ServiceClock
import Storage
import Testing
import Zones
@testable import API

/// The statistics through the API (SPEC D9, A2): a zone's figures per hour
/// or day in JSON and CSV, a driver's month, each zone's busy hours in
/// `GET /v1/waits`, each for the roles that may read them.
@Suite(.timeLimit(.minutes(20))) struct StatisticsAPITests {
    /// T1's driver logs in through the API, takes pat's request, arrives
    /// 100 s after it and completes it; the archive holds two of T1's fixes
    /// 1.11 km apart within the half hour the driver was on duty.
    static func harnessAfterOneRide() async throws -> APIHarness {
        let archive = InMemoryFixArchive()
        try archive.append([-10.0, -5.0].enumerated().map { index, minute in
            FixHistoryAPITests.fix("T1", minute: minute, lat: 40.75 + Double(index) / 100)
        })
        let harness = try await APIHarness(archive: archive)
        try await harness.test { client in
            let login = #"{"username":"T1","password":"\#(APIHarness.password)"}"#
            let session = try await client.call(.post, "/v1/sessions", json: login)
            #expect(session.status == .created)
        }
        // The archive's fixes (outside every zone) made T1 known at start: it now appears in zone 161.
        try await harness.dispatcher.execute(.fleet(.appeared("T1", zone: "161", at: harness.clock.now)))
        try await harness.dispatcher.execute(.setAvailable("T1"))
        try await harness.dispatcher.execute(.request("pat", pickup: APIHarness.midtown, zone: "161", destination: nil))
        try await harness.dispatcher.accept("T1")
        harness.clock.advance(by: .seconds(100))
        for command: DispatchCommand in [.arrived("T1"), .passengerAboard("T1"), .completed("T1")] {
            try await harness.dispatcher.execute(command)
        }
        try harness.service.stores.dispatchLog.write([.counts([
            HourlyCount(subject: "driver/T1", hour: APIHarness.now, measure: "on_duty_s/T1", count: 1_800),
            HourlyCount(subject: "driver/T1", hour: APIHarness.now, measure: "available_s", count: 900),
        ])])
        return harness
    }

    @Test func aZonesDayComesByHourInJSONAndCSV() async throws {
        let harness = try await Self.harnessAfterOneRide()
        let dispatcher = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/stats/zones?from=2026-09-21&to=2026-09-22&bucket=hour", token: dispatcher)
            #expect(answer.status == .ok)
            #expect(answer["from"] == "2026-09-21T00:00:00Z" && answer["to"] == "2026-09-22T00:00:00Z" && answer["bucket"] == "hour")
            let zones = try answer.list("zones")
            #expect(zones.count == 1)
            let zone = try #require(zones.first)
            #expect(zone["zoneId"]?.scalarText == "161" && zone["name"]?.scalarText == "Midtown Center")
            for (field, value) in [("requests", "1"), ("offers", "1"), ("accepted", "1"), ("served", "1"), ("refused", "0"), ("waitP50S", "105")] {
                #expect(zone["total"]?[field]?.scalarText == value, "\(field) in \(zone)")
            }
            guard case .array(let buckets)? = zone["buckets"] else { throw APITestFailure("no buckets in \(zone)") }
            #expect(buckets.count == 1, "only the hour something happened in")
            #expect(buckets.first?["start"]?.scalarText == "2026-09-21T14:00:00Z")

            let csv = try await client.execute(
                uri: "/v1/stats/zones?from=2026-09-21&to=2026-09-22&format=csv", method: .get,
                headers: [.authorization: "Bearer \(dispatcher)"]) { String(buffer: $0.body) }
            let lines = csv.split(separator: "\r\n")
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("zone_id,zone_name,start,requests,bookings,offers") == true)
            #expect(lines.last?.hasPrefix("161,Midtown Center,2026-09-21T00:00:00Z,1,0,1,1,0,0,0,1,") == true, "by day: \(csv)")

            #expect(try await client.call(.get, "/v1/stats/zones", token: passenger).status == .forbidden)
            #expect(try await client.call(.get, "/v1/stats/zones?bucket=week", token: dispatcher).status == .badRequest)
            #expect(try await client.call(.get, "/v1/stats/zones?from=2026-09-22&to=2026-09-21", token: dispatcher).status == .unprocessableContent)
            #expect(try await client.call(.get, "/v1/stats/zones?from=2026-01-01&bucket=hour", token: dispatcher).status == .unprocessableContent)
            let elsewhere = try await client.call(.get, "/v1/stats/zones?zone=7&from=2026-09-21&to=2026-09-22", token: dispatcher)
            #expect(try elsewhere.list("zones").isEmpty)
        }
    }

    @Test func aDriverReadsHisMonthAndAnAdministratorAnyDriversMonth() async throws {
        let harness = try await Self.harnessAfterOneRide()
        let driver = try await harness.token(.driver)
        let administrator = try await harness.token(.administrator)
        let dispatcher = try await harness.token(.dispatcher)
        try await harness.test { client in
            let report = try await client.call(.get, "/v1/drivers/T1/report?month=2026-09", token: driver)
            #expect(report.status == .ok)
            for (field, value) in [("offers", "1"), ("accepted", "1"), ("completed", "1"), ("refused", "0"), ("hoursOnDuty", "0.5"),
                                   ("hoursAvailable", "0.25"), ("kilometres", "1.11"), ("month", "2026-09")] {
                #expect(report[field] == value, "\(field) in \(report)")
            }
            let shifts = try report.list("shifts")
            #expect(shifts.count == 1 && shifts.first?["taxiId"]?.scalarText == "T1" && shifts.first?["from"]?.scalarText == "2026-09-21T14:00:00Z")

            #expect(try await client.call(.get, "/v1/drivers/T1/report?month=2026-09", token: administrator)["completed"] == "1")
            #expect(try await client.call(.get, "/v1/drivers/T1/report?month=2026-08", token: administrator)["completed"] == "0")
            #expect(try await client.call(.get, "/v1/drivers/T1/report", token: dispatcher).status == .forbidden)
            #expect(try await client.call(.get, "/v1/drivers/pat/report", token: administrator).status == .notFound)
            #expect(try await client.call(.get, "/v1/drivers/T1/report?month=2026-13", token: administrator).status == .badRequest)
        }
    }

    @Test func theWaitAtAPointTellsTheZonesBusiestHours() async throws {
        let harness = try await APIHarness()
        let twoDaysAgo = APIHarness.now.addingTimeInterval(-2 * 86_400)
        func hour(_ hour: Int, _ requests: Int64) -> HourlyCount {
            let start = Calendar(identifier: .gregorian).startOfDay(for: twoDaysAgo)
            return HourlyCount(subject: "zone/161", hour: start.addingTimeInterval(Double(hour) * 3_600), measure: "requests", count: requests)
        }
        try harness.service.stores.dispatchLog.write([.counts([hour(8, 56), hour(17, 28), hour(12, 14), hour(3, 1)])])
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let wait = try await client.call(.get, "/v1/waits?lon=-73.985&lat=40.755", token: passenger)
            let busy = try wait.list("busyHours")
            #expect(busy.map { $0["hour"]?.scalarText } == ["8", "12", "17"], "the three busiest, in the day's order: \(busy)")
            #expect(busy.first?["requestsPerDay"]?.scalarText == "2", "56 requests over 28 days")
        }
    }
}
