import DispatchCore
import Foundation
import Testing
import TestSupport

/// SPEC O5: `mytaxi db backup` copies the embedded store while `mytaxi
/// serve` runs on it, and `mytaxi db restore` puts it into a new data
/// directory that `serve` starts on as it is, with every fix and ride
/// request acknowledged before the backup started. The commands keep
/// their contract: help, exit statuses, PostgreSQL pointed to its own tools.
@Suite(.serialized, .timeLimit(.minutes(20))) struct DbBackupCommandTests {
    static let password = DispatchRestartTests.password
    /// Road points of Midtown (the demo graph), each inside a Manhattan taxi zone.
    static let places = DispatchRestartTests.places
    static let taxis = (1...4).map { "T\($0)" }

    static func serveArguments(dataDirectory: String) -> [String] {
        [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
            "--devices", "devices.csv", "--data-dir", dataDirectory, "--http-port", "0", "--line-port", "0",
            "--osmand-port", "off", "--nmea-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
            // The queued ride requests stay open (no taxi is available) until the state is read.
            "--confirmation-timeout", "3600", "--offer-timeout", "3600", "--stale-after", "3600",
        ]
    }

    @Test func helpListsBackupAndRestore() async throws {
        let db = try await CommandRunner.run(["db", "--help"])
        #expect(db.status == 0)
        #expect(db.standardOutput.contains("backup") && db.standardOutput.contains("restore"), "\(db.standardOutput)")
        let root = try await CommandRunner.run(["--help"])
        #expect(root.standardOutput.contains("backed up or restored"), "\(root.standardOutput)")
        let backup = try await CommandRunner.run(["db", "backup", "--help"])
        #expect(backup.standardOutput.contains("Exit status: 0 backed up"), "\(backup.standardOutput)")
    }

    @Test func aServiceOnPostgreSQLIsToldToUseItsOwnTools() async throws {
        let folder = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("backup.zip").path
        let result = try await CommandRunner.run(["db", "backup", "--database", "postgres://mytaxi:secret-word@127.0.0.1:1/city", "-o", archive])
        #expect(result.status == 2)
        for words in ["pg_dump", "pg_basebackup", "Patroni", "docs/operations.md"] {
            #expect(result.standardError.contains(words), "\(result.standardError)")
        }
        #expect(!result.standardError.contains("secret-word"))
        #expect(!FileManager.default.fileExists(atPath: archive))
    }

    /// Misuse exits 2 naming what is wrong (no store, an archive already
    /// there, no archive to read); a refusal exits 1 (a store in the way).
    @Test func misuseExitsTwoAndARefusalOne() async throws {
        let folder = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path, archive = folder.appendingPathComponent("backup.zip").path
        let created = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "root", "--password-stdin"],
            input: Self.password)
        #expect(created.status == 0, "\(created.standardError)")

        let empty = try await CommandRunner.run(["db", "backup", "--data-dir", folder.path, "-o", archive])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("no embedded store in \(folder.path)"), "\(empty.standardError)")

        let backup = try await CommandRunner.run(["db", "backup", "--data-dir", data, "-o", archive])
        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(backup.lines.count == 1 && backup.lines[0].hasPrefix("\(data) → \(archive): 1 file ("), "\(backup.standardOutput)")
        #expect(backup.standardError.hasPrefix("backup: accounts.sqlite: ") && backup.standardError.hasSuffix(", 1 account\n"),
                "one line per file: \(backup.standardError)")

        let again = try await CommandRunner.run(["db", "backup", "--data-dir", data, "-o", archive])
        #expect(again.status == 2)
        #expect(again.standardError.contains("\(archive) exists already; give another file, or --force"), "\(again.standardError)")
        #expect(try await CommandRunner.run(["db", "backup", "--data-dir", data, "-o", archive, "--force"]).status == 0)

        let missing = try await CommandRunner.run(["db", "restore", "-i", archive + ".missing", "--data-dir", folder.path + "/new"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read the backup"), "\(missing.standardError)")

        let over = try await CommandRunner.run(["db", "restore", "-i", archive, "--data-dir", data])
        #expect(over.status == 1)
        #expect(over.standardError.contains("\(data) holds a store already (accounts.sqlite"), "\(over.standardError)")

        let restored = try await CommandRunner.run(["db", "restore", "-i", archive, "--data-dir", folder.path + "/new"])
        #expect(restored.status == 0, "\(restored.standardError)")
        let listed = try await CommandRunner.run(["accounts", "list", "--data-dir", folder.path + "/new"])
        #expect(listed.lines == ["1: root (administrator), active"], "\(listed.standardError)")
    }

    /// Terminals stream fixes over the line protocol and a dispatcher
    /// requests rides for phone callers while `db backup` runs; the backup
    /// restored into a new directory holds every fix acknowledged and
    /// every ride answered before the backup started, read through the API
    /// of a service started on it.
    @Test func aBackupTakenUnderLoadHoldsEveryFixAndRideAcknowledgedBeforeIt() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.taxis.map { "dev-\($0),\($0)" }.joined(separator: "\n")
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let data = directory.appendingPathComponent("data").path
        let desk = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "dispatcher", "--username", "desk", "--password-stdin"],
            input: Self.password)
        #expect(desk.status == 0, "\(desk.standardError)")
        let service = try await ServiceProcess(
            arguments: Self.serveArguments(dataDirectory: "data"), directory: directory, expectedListeners: ["http", "line/tcp"])
        let token = try await DispatchRestartTests.login(service, "desk")

        let load = Load(service: service, linePort: try #require(service.ports["line/tcp"]), token: token)
        load.start()
        try await waitUntil("fixes and rides acknowledged") { load.fixes.values.count >= 200 && load.rides.values.count >= 5 }
        let backupStarted = Date()
        let archive = directory.appendingPathComponent("backup.zip").path
        let backup = try await CommandRunner.run(["db", "backup", "--data-dir", data, "-o", archive])
        let backupEnded = Date()
        #expect(backup.status == 0, "\(backup.standardError)")
        try await waitUntil("fixes and rides acknowledged after the backup") {
            load.fixes.values.filter { $0.answeredAt > backupEnded }.count >= 100
                && load.rides.values.filter { $0.answeredAt > backupEnded }.count >= 2
        }
        try await load.stop()
        service.stop()
        #expect(load.failures.values.isEmpty, "\(load.failures.values)")
        let fixesBefore = load.fixes.values.filter { $0.answeredAt < backupStarted }
        let ridesBefore = load.rides.values.filter { $0.answeredAt < backupStarted }
        let during = load.fixes.values.filter { (backupStarted...backupEnded).contains($0.answeredAt) }.count
        print("db backup under load: \(fixesBefore.count) fixes and \(ridesBefore.count) rides acknowledged before it, "
              + "\(during) fixes during it (\(String(format: "%.2f", backupEnded.timeIntervalSince(backupStarted))) s)")

        let restore = try await CommandRunner.run(["db", "restore", "-i", archive, "--data-dir", directory.appendingPathComponent("restored").path])
        #expect(restore.status == 0, "\(restore.standardError)")
        #expect(restore.standardOutput.contains("restored the backup of \(data)"), "\(restore.standardOutput)")
        let restored = try await ServiceProcess(
            arguments: Self.serveArguments(dataDirectory: "restored"), directory: directory, expectedListeners: ["http", "line/tcp"])
        defer { restored.stop() }

        for taxi in Self.taxis {
            let (status, body) = try await restored.recentFixes(of: taxi)
            #expect(status == 200)
            let archived = Set(try Self.times(of: body))
            let acknowledged = Set(fixesBefore.filter { $0.device == "dev-\(taxi)" }.map(\.time))
            #expect(!acknowledged.isEmpty)
            let missing = acknowledged.subtracting(archived)
            #expect(missing.count == 0, "of \(acknowledged.count) fixes of \(taxi) acknowledged before the backup, these are not in it: \(missing.sorted().prefix(5))")
        }
        let state = try await DispatchRestartTests.state(restored, try await restored.administratorSession())
        let open = Set(state.state.requests.keys.map(\.description))
        let missingRides = ridesBefore.map(\.device).filter { !open.contains($0) }
        #expect(missingRides.isEmpty, "rides answered before the backup but not in it: \(missingRides)")
        #expect(state.logSequence > 0)
    }

    /// The `time` of every fix in a fix list of the API, as milliseconds since 1970.
    static func times(of body: Data) throws -> [String] {
        guard let fixes = try JSONSerialization.jsonObject(with: body) as? [[String: Any]] else {
            throw ServiceProcessError("not a list of fixes: \(String(decoding: body, as: UTF8.self))")
        }
        return fixes.compactMap { ($0["time"] as? String).flatMap(Self.milliseconds(of:)).map(String.init) }
    }

    /// `milliseconds` since 1970 as ISO 8601 with milliseconds, `2026-12-05T21:58:47.656Z`,
    /// written from the integer (a formatter given the `Date` truncates, and may write `.655`).
    static func text(milliseconds: Int64) -> String {
        let whole = Date(timeIntervalSince1970: Double(milliseconds / 1000)).formatted(Date.ISO8601FormatStyle())
        return String(whole.dropLast()) + String(format: ".%03lldZ", milliseconds % 1000)
    }

    /// The milliseconds since 1970 of `text`, ISO 8601 with milliseconds.
    static func milliseconds(of text: String) -> Int64? {
        let parts = text.dropLast().split(separator: ".")
        guard parts.count == 2, let fraction = Int64(parts[1]), parts[1].count == 3,
              let whole = try? Date(String(parts[0]) + "Z", strategy: Date.ISO8601FormatStyle()) else { return nil }
        return Int64(whole.timeIntervalSince1970) * 1000 + fraction
    }

    /// Fixes from each taxi's terminal over the line protocol (one line,
    /// then its ACK, each on a thread of its own) and ride requests for
    /// phone callers, one after the other, until ``stop()``: what was
    /// acknowledged, and when.
    final class Load: @unchecked Sendable {
        let service: ServiceProcess
        let linePort: Int
        let token: String
        /// (device, fix time in milliseconds, when its ACK came).
        let fixes = ResultsBox()
        /// (ride id, "", when its 201 came).
        let rides = ResultsBox()
        /// Anything unexpected: a missing ACK, a ride refused.
        let failures = FailuresBox()
        private let finished = DeadlineBox()
        private let threads = DispatchGroup()
        private let rideTask = TaskBox()

        init(service: ServiceProcess, linePort: Int, token: String) {
            self.service = service
            self.linePort = linePort
            self.token = token
        }

        func start() {
            // Fix times a tenth of a second apart from half an hour ago: never in the future during the test.
            let firstMilliseconds = Int64((Date().timeIntervalSince1970 - 1_800) * 1000)
            for (index, taxi) in DbBackupCommandTests.taxis.enumerated() {
                threads.enter()
                Thread.detachNewThread { [self] in
                    defer { threads.leave() }
                    streamFixes(device: "dev-\(taxi)", place: DbBackupCommandTests.places[index], from: firstMilliseconds)
                }
            }
            rideTask.set(Task { await self.requestRides() })
        }

        /// Stops the load and waits for its last answers.
        func stop() async throws {
            finished.set(Date())
            await rideTask.value()
            try await offThePool { [threads] in threads.wait() }
        }

        private func streamFixes(device: String, place: (Double, Double), from firstMilliseconds: Int64) {
            guard let client = try? ServeCommandTests.TCPClient(port: linePort, receiveTimeoutSeconds: 10) else {
                failures.append("\(device): cannot connect")
                return
            }
            var sequence = 0
            while !finished.hasPassed {
                sequence += 1
                let milliseconds = firstMilliseconds + Int64(sequence) * 100
                // Back and forth 110 m at 20 km/h: validation refuses none of them.
                let step = sequence % 400 < 200 ? sequence % 200 : 200 - sequence % 200
                let time = DbBackupCommandTests.text(milliseconds: milliseconds)
                let line = "MT1,\(device),\(sequence),\(time),\(place.1 + Double(step) * 0.000_005),\(place.0),20,0,A\n"
                client.send(Array(line.utf8))
                let expected = "ACK,\(sequence)\n"
                let reply = String(decoding: client.receive(atLeast: expected.utf8.count).bytes, as: UTF8.self)
                guard reply == expected else {
                    failures.append("\(device): \(line) answered \(reply.debugDescription)")
                    return
                }
                fixes.append((device, String(milliseconds), Date()))
            }
        }

        private func requestRides() async {
            var caller = 0
            while !finished.hasPassed {
                caller += 1
                let (lon, lat) = DbBackupCommandTests.places[caller % DbBackupCommandTests.places.count]
                let json = #"{"pickup": {"lon": \#(lon), "lat": \#(lat)}, "callerPhone": "+1 212 555 \#(1000 + caller)"}"#
                guard let answer = try? await service.call("POST", "/v1/rides", token: token, json: json),
                      answer.status == 201 || answer.status == 202,
                      let ride = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["rideId"] as? String else {
                    failures.append("a ride for caller \(caller) was not answered 201 with its id")
                    return
                }
                rides.append((ride, "", Date()))
            }
        }
    }

    /// Lines gathered from several threads.
    final class FailuresBox: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []

        func append(_ item: String) { lock.withLock { items.append(item) } }
        var values: [String] { lock.withLock { items } }
    }

    /// A task set once and awaited once.
    final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var task: Task<Void, Never>?

        func set(_ task: Task<Void, Never>) { lock.withLock { self.task = task } }
        func value() async { await lock.withLock { task }?.value }
    }
}
