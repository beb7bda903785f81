import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 18: `mytaxi simulate` against the real `mytaxi serve`: its
/// terminals' fixes reach the service over the line protocol, Teltonika and
/// GT06, its drivers and passengers serve rides over the API (the
/// passengers registering themselves), and the service's own counters agree.
/// A burst (`--burst`, on SIGUSR1) opens a ride for each of its own passengers.
@Suite(.serialized, .timeLimit(.minutes(20)), .tags(.longRunningProcesses)) struct SimulateCommandTests {
    @Test func aShortSimulationServesRidesOverTheRealProtocolsAndAPI() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let devices = directory.appendingPathComponent("devices.csv").path
        let waitsCSV = directory.appendingPathComponent("waits.csv").path
        let acknowledgedCSV = directory.appendingPathComponent("acknowledged.csv").path
        let written = try await CommandRunner.run(["simulate", "devices", "--taxis", "8", "-o", devices])
        #expect(written.status == 0, "\(written.standardError)")
        let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path
        let service = try await ServiceProcess(
            arguments: [
                "--zones", zones, "--devices", devices, "--data-dir", "data", "--http-port", "0", "--line-port", "0",
                "--teltonika-port", "0", "--gt06-port", "0", "--nmea-port", "off", "--osmand-port", "off",
                "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000",
            ],
            directory: directory, expectedListeners: ["http", "line/tcp", "teltonika/tcp", "gt06/tcp"])
        defer { service.stop() }

        let simulator = Mutex<Int32>(0)
        async let finished = CommandRunner.run(
            [
                "simulate", "--zones", zones, "--graph", try DemoGraph.path(), "--http-port", "\(service.ports["http"]!)",
                "--line-port", "\(service.ports["line/tcp"]!)", "--teltonika-port", "\(service.ports["teltonika/tcp"]!)",
                "--gt06-port", "\(service.ports["gt06/tcp"]!)", "--admin", ServiceProcess.administrator.username, "--password-stdin",
                "--taxis", "8", "--passengers", "12", "--requests-per-hour", "120", "--hours", "0.3", "--speed-up", "30",
                "--missing-rate", "0", "--seed", "7", "--progress-every", "2", "--json", "--waits-csv", waitsCSV,
                "--acknowledged-fixes", acknowledgedCSV, "--burst", "4",
            ],
            input: ServiceProcess.administrator.password + "\n", started: { pid in simulator.withLock { $0 = pid } })
        // The burst's passengers sign up after the simulator listens for SIGUSR1.
        try await waitUntil("the burst's last passenger signed up") {
            let accounts = try JSONSerialization.jsonObject(with: try await service.get("/v1/accounts?role=passenger").body) as? [[String: Any]]
            return accounts?.contains { $0["username"] as? String == "sim-burst-p00004" } == true
        }
        kill(simulator.withLock { $0 }, SIGUSR1)
        let run = try await finished
        #expect(run.status == 0, "\(run.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let rides = try String(contentsOfFile: waitsCSV, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rides.first?.joined(separator: ",") == "ride_id,zone_id,requested_at,told_wait_s,wait_s,queued,refusals,taxi_was_moving,drive_s")
        #expect((1...(summary["served"] as? Int ?? 0)).contains(rides.count - 1), "a line for every ride asked for now and served: \(rides)")
        #expect(rides.dropFirst().allSatisfy { $0.count == 9 && !$0[1].isEmpty && (Double($0[4]) ?? 0) > 0 && (Double($0[8]) ?? .infinity) <= Double($0[4])! }, "each in a zone, with its wait and its taxi's drive, which is part of the wait: \(rides)")
        let byProtocol = try #require(summary["fixesByProtocol"] as? [String: Int])
        #expect(Set(byProtocol.keys) == ["line", "teltonika", "gt06"])
        #expect(byProtocol.values.allSatisfy { $0 > 10 }, "every protocol's terminals reported: \(byProtocol)")
        #expect(summary["driversAvailable"] as? Int == 8, "\(run.standardOutput)")
        #expect((summary["served"] as? Int ?? 0) >= 2, "\(run.standardOutput)")
        #expect((summary["completed"] as? Int ?? 0) >= 1, "\(run.standardOutput)")
        #expect(summary["waitP50Seconds"] as? Double != nil)
        #expect(summary["burstRides"] as? Int == 4, "each of the burst's passengers had a ride opened: \(run.standardOutput)")
        #expect(run.standardError.contains("taxis (8 went available)"), "a progress line: \(run.standardError)")

        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        for wire in ["line", "teltonika", "gt06"] {
            #expect(Self.total(metrics, "mytaxi_fixes_accepted_total{protocol=\"\(wire)\"") > 10, "the service accepted \(wire) fixes")
        }
        #expect(Self.total(metrics, "mytaxi_dispatch_wait_seconds_count") >= 2, "the service timed the waits of the rides served")
        let passengers = try await #require(
            try JSONSerialization.jsonObject(with: service.get("/v1/accounts?role=passenger").body) as? [[String: Any]])
        #expect(passengers.count == 16, "every simulated passenger, and the burst's, has an account")
        #expect(passengers.allSatisfy { $0["emailConfirmed"] as? Bool == true }, "and confirmed its address: \(passengers)")
        let outbox = try await #require(try JSONSerialization.jsonObject(with: service.get("/v1/outbox?limit=100").body) as? [[String: Any]])
        #expect(
            Set(outbox.compactMap { $0["to"] as? String })
                == Set((1...12).map { String(format: "sim-p%05d@example.com", $0) } + (1...4).map { String(format: "sim-burst-p%05d@example.com", $0) }),
            "the passengers registered themselves, each sent a confirmation e-mail")
        let fleet = try await service.get("/v1/fleet")
        let taxis = try #require(try JSONSerialization.jsonObject(with: fleet.body) as? [[String: Any]])
        #expect(taxis.count == 8, "every simulated taxi is in the live fleet")
        try await Self.expectEveryAcknowledgedFixArchived(
            listed: acknowledgedCSV, devices: devices, count: try #require(summary["fixesAcknowledged"] as? Int), in: service)
    }

    /// `--acknowledged-fixes` lists every fix the service acknowledged, one
    /// line each, and the service's archive holds every one of them (this
    /// run refuses none: its taxis' fixes are all valid).
    static func expectEveryAcknowledgedFixArchived(listed path: String, devices: String, count: Int, in service: ServiceProcess) async throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(lines.first == ["device_id", "time"])
        let acknowledged = try lines.dropFirst().map { line in
            (device: line[0], time: try #require(try? Date(line[1], strategy: .iso8601), "a time: \(line)"))
        }
        #expect(acknowledged.count == count, "one line per fix the summary counts acknowledged")
        #expect(count > 50)
        let taxiOfDevice = Dictionary(uniqueKeysWithValues: try String(contentsOfFile: devices, encoding: .utf8)
            .split(separator: "\n").dropFirst().map { line in (String(line.split(separator: ",")[0]), String(line.split(separator: ",")[1])) })
        let from = try #require(acknowledged.map(\.time).min()).formatted(.iso8601)
        let to = try #require(acknowledged.map(\.time).max()).addingTimeInterval(1).formatted(.iso8601)
        var archived: Set<String> = []
        for taxi in Set(taxiOfDevice.values) {
            let answer = try await service.get("/v1/taxis/\(taxi)/fixes?from=\(from)&to=\(to)&limit=50000")
            let fixes = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]], "\(answer.status)")
            // The archive's times carry milliseconds (.000Z); the frames' are whole seconds.
            archived.formUnion(fixes.map { "\(taxi) \(($0["time"] as? String ?? "").prefix(19))" })
        }
        let missing = acknowledged.filter { !archived.contains("\(taxiOfDevice[$0.device] ?? "?") \($0.time.formatted(.iso8601).prefix(19))") }
        #expect(missing.isEmpty, "acknowledged, so archived: \(missing.prefix(5)) of \(missing.count)")
    }

    /// Passengers who are not at the pickup: each driver waits until the
    /// service allows it (`--missing-client-wait`), reports the missing
    /// client, and the summary counts them as the service recorded them.
    /// The service runs on the simulation's time (`--clock-rate`), so the
    /// wait is given in simulated seconds, as a city would give it, and a
    /// simulation at another speed is refused before it starts. (At 30x a
    /// driver's app looks every 15 simulated seconds, hence a minute to answer.)
    @Test func missingPassengersAreReportedAfterTheWaitAndCounted() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let devices = directory.appendingPathComponent("devices.csv").path
        #expect(try await CommandRunner.run(["simulate", "devices", "--taxis", "6", "-o", devices]).status == 0)
        let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path
        let service = try await ServiceProcess(
            arguments: [
                "--zones", zones, "--devices", devices, "--data-dir", "data", "--http-port", "0", "--line-port", "0",
                "--teltonika-port", "0", "--gt06-port", "0", "--nmea-port", "off", "--osmand-port", "off",
                "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000", "--missing-client-wait", "90",
                "--clock-rate", "30", "--offer-timeout", "60",
            ],
            directory: directory, expectedListeners: ["http", "line/tcp", "teltonika/tcp", "gt06/tcp"])
        defer { service.stop() }

        func simulate(speedUp: String) async throws -> CommandRunner.Result {
            try await CommandRunner.run(
                [
                    "simulate", "--zones", zones, "--graph", try DemoGraph.path(), "--http-port", "\(service.ports["http"]!)",
                    "--line-port", "\(service.ports["line/tcp"]!)", "--teltonika-port", "\(service.ports["teltonika/tcp"]!)",
                    "--gt06-port", "\(service.ports["gt06/tcp"]!)", "--admin", ServiceProcess.administrator.username, "--password-stdin",
                    "--taxis", "6", "--passengers", "8", "--requests-per-hour", "120", "--hours", "0.3", "--speed-up", speedUp,
                    "--missing-rate", "1", "--refusal-rate", "0", "--cancel-rate", "0", "--reservation-share", "0", "--seed", "11",
                    "--json",
                ],
                input: ServiceProcess.administrator.password + "\n")
        }
        let tooSlow = try await simulate(speedUp: "10")
        #expect(tooSlow.status == 2)
        #expect(tooSlow.standardError.contains("the service's clock runs at 30x"), "\(tooSlow.standardError)")
        let run = try await simulate(speedUp: "30")
        #expect(run.status == 0, "\(run.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let missing = try #require(summary["missing"] as? Int)
        // How many pickups are reached in the run's 36 s depends on the machine's load: at least one.
        #expect(missing >= 1, "every passenger was missing, so every pickup reached ends so: \(run.standardOutput)")
        #expect(summary["completed"] as? Int == 0, "nobody aboard, no ride completed: \(run.standardOutput)")

        var recorded = 0
        for taxi in 1...6 {
            let login = try await service.call(
                "POST", "/v1/sessions",
                json: #"{"username": "\#(String(format: "TX%06d", taxi))", "password": "\#(ServiceProcess.administrator.password)"}"#)
            let token = try #require((try JSONSerialization.jsonObject(with: login.body) as? [String: Any])?["token"] as? String)
            let rides = try await #require(
                try JSONSerialization.jsonObject(with: service.call("GET", "/v1/driver/rides", token: token).body) as? [[String: Any]])
            recorded += rides.filter { $0["outcome"] as? String == "client_missing" }.count
        }
        #expect(recorded == missing, "the service recorded as many missing clients as the simulator reported")
    }

    /// The sum of the samples of `metrics` whose line starts with `prefix`.
    static func total(_ metrics: String, _ prefix: String) -> Double {
        metrics.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }
}
