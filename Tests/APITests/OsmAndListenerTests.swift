import FixRecords
import Fleet
import Foundation
import Hummingbird
import HummingbirdTesting
import Ingest
import Metrics
import Prometheus
import ServiceClock
import Storage
import Synchronization
import Testing
@testable import API

/// A sink that fails its first submission (a full disk), then stores.
final class FailingOnceSink: FixSink {
    private let failed = Mutex(false)
    let next: any FixSink

    init(next: any FixSink) { self.next = next }

    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        guard failed.withLock({ failed in defer { failed = true }; return failed }) else {
            return completion(.failure(StorageError.writeFailed(reason: "disk full")))
        }
        next.submit(fixes, completion: completion)
    }
}

@Suite(.timeLimit(.minutes(20))) struct OsmAndListenerTests {
    static let now = Date(timeIntervalSince1970: 1_795_420_800)

    func makeListener(
        failFirstCommit: Bool = false, devices: String = "device_id,taxi_id\n902064,TX1\n", requireSecrets: Bool = false
    ) throws -> (OsmAndListener, InMemoryFixArchive, PrometheusCollectorRegistry) {
        let archive = InMemoryFixArchive()
        let registry = PrometheusCollectorRegistry()
        let committer = GroupCommitter(archive: archive)
        let pipeline = IngestPipeline(
            devices: try DeviceRegistry(csv: devices), zones: nil, validator: FixValidator(),
            sink: failFirstCommit ? FailingOnceSink(next: committer) : committer,
            metrics: IngestMetrics(factory: PrometheusMetricsFactory(registry: registry)), clock: ManualClock(now: Self.now),
            secretPolicy: DeviceSecretPolicy(requireSecrets: requireSecrets))
        return (OsmAndListener(pipeline: pipeline), archive, registry)
    }

    /// The app resends a fix that got 503; the resend is stored, then 200,
    /// and not answered 200 as a "duplicate" of the fix that was never stored.
    @Test func aResendAfterAFailedCommitIsStoredThenAnswered200() async throws {
        let (listener, archive, _) = try makeListener(failFirstCommit: true)
        let uri = "/?id=902064&lat=42.06288&lon=-88.23412&timestamp=1795420790"
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
            #expect(try await archive.count() == 0)
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).isEmpty, "stored, not refused as a duplicate")
            }
        }
        #expect(try await archive.count() == 1)
    }

    @Test func aQueryFixIsStoredThenAnswered200() async throws {
        let (listener, archive, _) = try makeListener()
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(uri: "/?id=902064&lat=42.06288&lon=-88.23412&timestamp=1795420790&speed=10", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        let stored = try await archive.fixes(of: "TX1", in: Date.distantPast...Date.distantFuture, limit: 10)
        #expect(stored.count == 1)
        #expect(stored.first?.speedKmh == 18.52)
    }

    @Test func aFormBodyAndAJSONBodyAreAccepted() async throws {
        let (listener, archive, _) = try makeListener()
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(
                uri: "/", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "id=902064&lat=42.06&lon=-88.23&timestamp=1795420700")
            ) { response in
                #expect(response.status == .ok)
            }
            let json = #"{"device_id":"902064","location":{"timestamp":"2026-11-23T07:59:00Z","coords":{"latitude":42.07,"longitude":-88.24,"speed":5,"heading":90}}}"#
            try await client.execute(
                uri: "/", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json)
            ) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try await archive.count() == 2)
    }

    /// Malformed requests and unknown devices are 400; a fix that validation
    /// refuses is answered 200 with the reason, as the other protocols
    /// acknowledge refused fixes, so that the app does not resend it forever.
    @Test func malformedAndUnknownAre400ValidationRefusalsAre200() async throws {
        let (listener, archive, registry) = try makeListener()
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(uri: "/?id=999&lat=42&lon=-88", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("unknown_device"))
            }
            try await client.execute(uri: "/?id=902064&lat=north&lon=-88", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("lat 'north' is not a number"))
            }
            try await client.execute(uri: "/?id=902064&lat=0&lon=0", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("null_island"))
            }
        }
        #expect(try await archive.count() == 0)
        var text: [UInt8] = []
        registry.emit(into: &text)
        #expect(String(decoding: text, as: UTF8.self).contains(#"mytaxi_fixes_rejected_total{protocol="osmand",reason="unknown_device"} 1"#))
    }

    /// The device's secret comes in `key` (query string, form body, or the
    /// query string of a JSON post); missing or wrong is 401, counted by
    /// reason, and never stored. The answer never repeats the key.
    @Test func aDeviceWithASecretNeedsItsKey() async throws {
        let (listener, archive, registry) = try makeListener(devices: "device_id,taxi_id,secret\n902064,TX1,s3cret-902064\n")
        let fix = "id=902064&lat=42.06288&lon=-88.23412"
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(uri: "/?\(fix)&timestamp=1795420700", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("missing_secret"))
            }
            try await client.execute(uri: "/?\(fix)&timestamp=1795420710&key=guess-902064", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("bad_secret"))
                #expect(!String(buffer: response.body).contains("guess"), "the key is not repeated")
                #expect(response.headers[.wwwAuthenticate] != nil)
            }
            try await client.execute(uri: "/?\(fix)&timestamp=1795420720&key=s3cret-902064", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "\(fix)&timestamp=1795420730&key=s3cret%2D902064")
            ) { response in
                #expect(response.status == .ok)
            }
            let json = #"{"device_id":"902064","location":{"timestamp":"2026-11-23T07:59:40Z","coords":{"latitude":42.07,"longitude":-88.24}}}"#
            try await client.execute(
                uri: "/?key=s3cret-902064", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json)
            ) { response in
                #expect(response.status == .unauthorized)
            }
        }
        #expect(try await archive.count() == 3)
        var text: [UInt8] = []
        registry.emit(into: &text)
        let metrics = String(decoding: text, as: UTF8.self)
        #expect(metrics.contains(#"mytaxi_fixes_rejected_total{protocol="osmand",reason="missing_secret"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"mytaxi_fixes_rejected_total{protocol="osmand",reason="bad_secret"} 1"#))
        #expect(!metrics.contains("s3cret") && !metrics.contains("guess"))
    }

    /// With `--require-device-secret`, a device without a secret in the
    /// devices file is 401 (`secret_not_registered`); without it, 200 as before.
    @Test(arguments: [(true, HTTPResponse.Status.unauthorized), (false, .ok)])
    func aDeviceWithoutASecretFollowsTheRequirement(required: Bool, status: HTTPResponse.Status) async throws {
        let (listener, _, _) = try makeListener(requireSecrets: required)
        try await Application(router: listener.router()).test(.router) { client in
            try await client.execute(uri: "/?id=902064&lat=42.06&lon=-88.23&timestamp=1795420700", method: .get) { response in
                #expect(response.status == status)
                if required { #expect(String(buffer: response.body).contains("secret_not_registered")) }
            }
        }
    }
}
