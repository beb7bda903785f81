import Foundation
import TestSupport
import Testing

/// SPEC I6 with PostgreSQL as the store: what is acknowledged survives
/// `kill -9` of the service and a crash of PostgreSQL itself; while
/// PostgreSQL is down nothing is acknowledged, `/healthz` says why, and
/// ingest resumes by itself when it is back.
@Suite(.serialized, .enabled(if: PostgresCluster.available, PostgresCluster.skipReason), .timeLimit(.minutes(20)), .tags(.longRunningProcesses))
struct PostgresDurabilityTests {
    /// The line protocol over TCP, the service killed in the middle of the stream.
    @Test func everyAcknowledgedFixSurvivesKillNine() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await DurabilityTests.run(DurabilityTests.loadgen, ["--devices", "200", "--write-devices", "devices.csv"], in: directory)
        let arguments = DurabilityTests.serveArguments(only: "line") + ["--database", try PostgresCluster.createDatabase()]
        let first = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        let acked = try await DurabilityTests.stream(to: first, listener: "line/tcp", load: ["--devices", "200"], in: directory) {
            $0.kill()
        }
        #expect(acked.count > 500, "the stream should have been acknowledged for a while before the kill")
        try await DurabilityTests.expectArchivedAfterRestart(acked, arguments: arguments, in: directory)
    }

    /// Phones post OsmAnd fixes (each answered on its own, 200 only once
    /// stored) while PostgreSQL crashes for 3 s and comes back, and for 10 s
    /// after it is up again (reconnection backs off to 5 s at most, so fixes
    /// flow again well before the phones stop, however long the restart took).
    @Test func postgresStoppedMidStreamAcknowledgesNothingLosesNothingAndResumes() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let phones = (1...8).map { "phone\($0)" }
        try ("device_id,taxi_id\n" + phones.map { "\($0),TX-\($0)\n" }.joined())
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let arguments = DurabilityTests.serveArguments(only: "osmand") + ["--database", try PostgresCluster.createDatabase()]
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["osmand/http", "http"])
        let osmandPort = try #require(service.ports["osmand/http"])
        let httpPort = try #require(service.ports["http"])

        var down: (from: Date, to: Date)?
        var healthWhileDown: (status: Int, body: String)?
        var failure: (any Error)?
        let start = Int(Date().timeIntervalSince1970) - 3_600
        let answered = OsmAndPhones(port: osmandPort, phones: phones, firstSecond: start).post(meanwhile: {
            Thread.sleep(forTimeInterval: 1.5)
            do {
                try PostgresCluster.crash()
                let from = Date()
                Thread.sleep(forTimeInterval: 1.5)
                let health = ServiceProcess.getBlocking(try #require(URL(string: "http://127.0.0.1:\(httpPort)/healthz")))
                healthWhileDown = (health.status, String(decoding: health.body, as: UTF8.self))
                Thread.sleep(forTimeInterval: 1.5)
                down = (from, Date())
                try PostgresCluster.start()
            } catch {
                failure = error
            }
        }, thenFor: 10)
        if let failure { throw failure }
        let window = try #require(down)
        let whileDown = answered.filter { $0.answeredAt > window.from && $0.answeredAt < window.to }
        #expect(whileDown.isEmpty, "\(whileDown.count) fixes answered 200 while PostgreSQL was down")
        #expect(healthWhileDown?.status == 503)
        #expect(healthWhileDown?.body.contains("PostgreSQL") == true, "\(healthWhileDown?.body ?? "")")
        #expect(answered.contains { $0.answeredAt < window.from }, "fixes were stored before the crash")
        let afterRestart = answered.filter { $0.answeredAt > window.to }
        #expect(afterRestart.count > 20, "ingest resumed by itself: \(afterRestart.count) fixes stored after PostgreSQL came back")
        #expect(try await service.get("/healthz").status == 200, "healthy again")
        service.kill()
        try await DurabilityTests.expectArchivedAfterRestart(answered.map { ($0.device, $0.time) }, arguments: arguments, in: directory)
    }

    /// A node on PostgreSQL needs no data directory and writes none. A fix
    /// that came while PostgreSQL was down was not stored; once PostgreSQL is
    /// back `/healthz` answers 200 again by itself, though no fix came since:
    /// a balancer that checks it would otherwise never send a terminal back.
    @Test func healthIsOkAgainOncePostgresIsBackThoughNoFixCameSince() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "device_id,taxi_id\nphone1,TX-phone1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        var arguments = DurabilityTests.serveArguments(only: "osmand") + ["--database", try PostgresCluster.createDatabase()]
        let dataDir = try #require(arguments.firstIndex(of: "--data-dir"))
        arguments.removeSubrange(dataDir...dataDir + 1)
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["osmand/http", "http"])
        defer { service.stop() }
        let phone = OsmAndPhones(port: try #require(service.ports["osmand/http"]), phones: ["phone1"], firstSecond: 0)
        let now = Int(Date().timeIntervalSince1970)
        #expect(phone.post("id=phone1&lat=43.73&lon=7.42&timestamp=\(now - 60)") == 200)

        try PostgresCluster.crash()
        #expect(phone.post("id=phone1&lat=43.7301&lon=7.42&timestamp=\(now - 30)") != 200, "a fix acknowledged while PostgreSQL was down")
        try await waitUntil("/healthz answering 503 while PostgreSQL is down") { try await service.get("/healthz").status == 503 }
        try PostgresCluster.start()
        try await waitUntil("/healthz answering 200 with no fix since PostgreSQL came back", within: .seconds(30)) {
            try await service.get("/healthz").status == 200
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path), "a data directory on a PostgreSQL node")
    }
}
