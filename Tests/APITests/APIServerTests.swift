import FixRecords
import Fleet
import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Ingest
import JSONKit
import Metrics
import Prometheus
import ServiceClock
import Storage
import Testing
import Zones
@testable import API

@Suite(.timeLimit(.minutes(20))) struct APIServerTests {
    static let now = APIHarness.now

    func fix(_ taxi: String, second: Double, lon: Double = -73.98, zone: ZoneID? = "161") -> AcceptedFix {
        AcceptedFix(
            taxiId: TaxiID(taxi), deviceId: "dev-\(taxi)", wireProtocol: .line,
            time: Self.now.addingTimeInterval(second), coordinate: Coordinate(longitude: lon, latitude: 40.75),
            speedKmh: 32.5, heading: 270, zoneId: zone, receivedAt: Self.now.addingTimeInterval(second))
    }

    /// The API with two taxis' fixes archived and in the live index, and a dispatcher's token.
    func makeServer(healthy: Bool = true, archive: any FixArchive = InMemoryFixArchive()) async throws
        -> (APIServer, PrometheusCollectorRegistry, HTTPFields)
    {
        let harness = try await APIHarness(archive: archive, healthy: healthy)
        let fixes = [fix("T1", second: -120), fix("T1", second: -60), fix("T2", second: -10, lon: -73.85, zone: "7")]
        try? archive.append(fixes)
        for fix in fixes { harness.fleet.update(fix.position, heardAt: fix.receivedAt) }
        let token = try await harness.token(.dispatcher)
        return (harness.server, harness.registry, [.authorization: "Bearer \(token)"])
    }

    func json(_ buffer: ByteBuffer) throws -> JSONValue {
        try JSONParser.parse(String(buffer: buffer))
    }

    @Test func aTaxiShowsItsLatestPositionAndWhetherItIsStale() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/v1/taxis/T1", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let body = try json(response.body)
                #expect(body["taxiId"] == .string("T1"))
                #expect(body["lon"] == .number(-73.98))
                #expect(body["lat"] == .number(40.75))
                #expect(body["time"] == .string("2026-09-21T14:12:20.000Z"))
                #expect(body["speedKmh"] == .number(32.5))
                #expect(body["heading"] == .number(270))
                #expect(body["zoneId"] == .string("161"))
                #expect(body["stale"] == .bool(false))
            }
        }
    }

    /// `/v1/clock` tells anyone the service's time and rate: what a
    /// simulated fleet follows when the service runs faster than real time.
    @Test func theClockTellsTheServicesTimeAndRate() async throws {
        let harness = try await APIHarness()
        harness.clock.advance(by: .seconds(90))
        try await Application(router: harness.server.router()).test(.router) { client in
            let answer = try await client.call(.get, "/v1/clock")
            #expect(answer.status == .ok)
            #expect(answer["now"] == FixTime.iso8601(Self.now.addingTimeInterval(90)))
            #expect(answer["rate"] == "1")
        }
    }

    @Test func anUnknownTaxiIsAProblemDocument() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/v1/taxis/NOPE", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try json(response.body)
                #expect(body["status"] == .number(404))
                #expect(body["detail"]?.scalarText?.contains("NOPE") == true)
            }
        }
    }

    @Test func aZoneListsItsTaxis() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/v1/zones/7/taxis", method: .get, headers: auth) { response in
                #expect(response.status == .ok)
                let body = try json(response.body)
                #expect(body["zoneId"] == .string("7"))
                guard case .array(let taxis)? = body["taxis"] else {
                    Issue.record("taxis is not an array")
                    return
                }
                #expect(taxis.map { $0["taxiId"] } == [.string("T2")])
            }
            try await client.execute(uri: "/v1/zones/999/taxis", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func fixesOfAWindowComeOldestFirst() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(
                uri: "/v1/taxis/T1/fixes?from=2026-09-21T14:10:00Z&to=2026-09-21T14:12:30Z", method: .get, headers: auth
            ) { response in
                #expect(response.status == .ok)
                guard case .array(let fixes) = try json(response.body) else {
                    Issue.record("not an array")
                    return
                }
                #expect(fixes.map { $0["time"] } == [.string("2026-09-21T14:11:20.000Z"), .string("2026-09-21T14:12:20.000Z")])
            }
            try await client.execute(uri: "/v1/taxis/T1/fixes?from=yesterday&to=2026-09-21T12:55:00Z", method: .get, headers: auth) { response in
                #expect(response.status == .badRequest)
                let detail = try json(response.body)["detail"]?.scalarText
                #expect(detail?.contains("'from'") == true)
            }
        }
    }

    /// A window longer than the service allows is refused naming the limit:
    /// well formed, not answerable (422).
    @Test func aWindowLongerThanSevenDaysIsRefused() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(
                uri: "/v1/taxis/T1/fixes?from=2026-09-01T00:00:00Z&to=2026-09-08T00:00:01Z", method: .get, headers: auth
            ) { response in
                #expect(response.status == .unprocessableContent)
                let detail = try json(response.body)["detail"]?.scalarText ?? ""
                #expect(detail.contains("longer than 7 days") && detail.contains("--history-max-days"), "\(detail)")
            }
            try await client.execute(
                uri: "/v1/taxis/T1/fixes?from=2026-09-01T00:00:00Z&to=2026-09-08T00:00:00Z", method: .get, headers: auth
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/v1/taxis/T1/fixes?from=2026-09-01T00:00:00Z&to=2026-09-02T00:00:00Z&cursor=%21%21", method: .get, headers: auth
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// A long answer comes in pages: following the `Link` header's next URL
    /// gives every fix of the window once, in order, also where a page ends
    /// among fixes two devices took in the same millisecond.
    @Test func pagesFollowedByTheirLinkGiveEveryFixOnce() async throws {
        let archive = InMemoryFixArchive()
        var fixes = (0..<23).map { fix("T7", second: Double($0)) }
        for second in [9.0, 10.0] {
            var twin = fix("T7", second: second)
            twin.deviceId = "dev-T7-spare"
            fixes.append(twin)
        }
        try archive.append(fixes)
        let (server, _, auth) = try await makeServer(archive: archive)
        let expected = fixes.sorted { ($0.time, $0.deviceId) < ($1.time, $1.deviceId) }
            .map { FixTime.iso8601($0.time) }
        try await Application(router: server.router()).test(.router) { client in
            var next: String? = "/v1/taxis/T7/fixes?from=2026-09-21T14:00:00%2B00:00&to=2026-09-21T15:00:00Z&limit=5"
            var seen: [String] = []
            var pages = 0
            while let uri = next, pages < 20 {
                pages += 1
                next = try await client.execute(uri: uri, method: .get, headers: auth) { response in
                    #expect(response.status == .ok)
                    guard case .array(let page) = try json(response.body) else { throw APITestFailure("not an array") }
                    #expect(page.count <= 5)
                    seen += page.map { $0["time"]?.scalarText ?? "" }
                    return response.headers[PagedResponse.link].map { link in
                        String(link.dropFirst().prefix { $0 != ">" })
                    }
                }
            }
            #expect(pages == 5, "25 fixes, 5 a page")
            #expect(seen == expected)
        }
    }

    @Test func healthReflectsTheListeners() async throws {
        for healthy in [true, false] {
            let (server, _, _) = try await makeServer(healthy: healthy)
            try await Application(router: server.router()).test(.router) { client in
                try await client.execute(uri: "/healthz", method: .get) { response in
                    #expect(response.status == (healthy ? .ok : .serviceUnavailable))
                }
            }
        }
    }

    @Test func metricsAreInPrometheusTextFormat() async throws {
        let (server, registry, _) = try await makeServer()
        let metrics = IngestMetrics(factory: PrometheusMetricsFactory(registry: registry))
        metrics.fixRejected(.gt06, .nullIsland)
        metrics.fixesAccepted(.line, count: 3)
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"mytaxi_fixes_rejected_total{protocol="gt06",reason="null_island"} 1"#))
                #expect(text.contains(#"mytaxi_fixes_accepted_total{protocol="line"} 3"#))
            }
        }
    }

    /// Every answer carries its request id, errors included, so that a
    /// client's report can be found in the log.
    @Test func everyAnswerCarriesARequestID() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            for uri in ["/v1/taxis/T1", "/v1/taxis/NOPE", "/healthz"] {
                try await client.execute(uri: uri, method: .get, headers: auth) { response in
                    #expect(response.headers[HTTPField.Name("X-Request-Id")!]?.isEmpty == false, "\(uri)")
                }
            }
        }
    }

    /// A path no route serves is a problem document too, not a bare 404.
    @Test func anUnknownPathIsAProblemDocument() async throws {
        let (server, _, auth) = try await makeServer()
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/v1/nothing-here", method: .get, headers: auth) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try json(response.body)
                #expect(body["status"] == .number(404))
            }
        }
    }

    /// An archive that fails behind the API gives a 503 problem (try again)
    /// naming the request id, with nothing of the error itself (no path, no SQL).
    @Test func aStoreFailureIsA503WithoutInternals() async throws {
        let (server, _, auth) = try await makeServer(archive: BrokenArchive())
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(
                uri: "/v1/taxis/T1/fixes?from=2026-09-21T00:00:00Z&to=2026-09-22T00:00:00Z", method: .get, headers: auth
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try json(response.body)
                let detail = body["detail"]?.scalarText ?? ""
                let requestID = response.headers[HTTPField.Name("X-Request-Id")!] ?? "?"
                #expect(detail.contains(requestID))
                #expect(!detail.contains("/var/lib/secret.sqlite"))
            }
        }
    }
}

/// An archive whose every read fails the way a broken disk would.
struct BrokenArchive: FixArchive {
    func append(_ fixes: [AcceptedFix]) throws(StorageError) {
        throw .writeFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        throw .readFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func latestFixPerTaxi() async throws(StorageError) -> [AcceptedFix] { [] }
    func count() async throws(StorageError) -> Int { 0 }
    func track(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> FixTrack {
        throw .readFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        throw .readFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func dailyDistances(of taxi: TaxiID, in window: ClosedRange<Date>) async throws(StorageError) -> [DailyDistance] {
        throw .readFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int {
        throw .writeFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
    func storedBytes() async throws(StorageError) -> Int64 {
        throw .readFailed(reason: "disk I/O error in /var/lib/secret.sqlite")
    }
}
