import Foundation
import TestSupport
import Testing

/// Issue 18: `mytaxi simulate` against the real `mytaxi serve`: its
/// terminals' fixes reach the service over the line protocol, Teltonika and
/// GT06, its drivers and passengers serve rides over the API (the
/// passengers registering themselves), and the service's own counters agree.
@Suite(.serialized, .timeLimit(.minutes(20)), .tags(.longRunningProcesses)) struct SimulateCommandTests {
    @Test func aShortSimulationServesRidesOverTheRealProtocolsAndAPI() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let devices = directory.appendingPathComponent("devices.csv").path
        let waitsCSV = directory.appendingPathComponent("waits.csv").path
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

        let run = try await CommandRunner.run(
            [
                "simulate", "--zones", zones, "--graph", try DemoGraph.path(), "--http-port", "\(service.ports["http"]!)",
                "--line-port", "\(service.ports["line/tcp"]!)", "--teltonika-port", "\(service.ports["teltonika/tcp"]!)",
                "--gt06-port", "\(service.ports["gt06/tcp"]!)", "--admin", ServiceProcess.administrator.username, "--password-stdin",
                "--taxis", "8", "--passengers", "12", "--requests-per-hour", "120", "--hours", "0.3", "--speed-up", "30",
                "--missing-rate", "0", "--seed", "7", "--progress-every", "2", "--json", "--waits-csv", waitsCSV,
            ],
            input: ServiceProcess.administrator.password + "\n")
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
        #expect(run.standardError.contains("taxis (8 went available)"), "a progress line: \(run.standardError)")

        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        for wire in ["line", "teltonika", "gt06"] {
            #expect(Self.total(metrics, "mytaxi_fixes_accepted_total{protocol=\"\(wire)\"") > 10, "the service accepted \(wire) fixes")
        }
        #expect(Self.total(metrics, "mytaxi_dispatch_wait_seconds_count") >= 2, "the service timed the waits of the rides served")
        let passengers = try await #require(
            try JSONSerialization.jsonObject(with: service.get("/v1/accounts?role=passenger").body) as? [[String: Any]])
        #expect(passengers.count == 12, "every simulated passenger has an account")
        #expect(passengers.allSatisfy { $0["emailConfirmed"] as? Bool == true }, "and confirmed its address: \(passengers)")
        let outbox = try await #require(try JSONSerialization.jsonObject(with: service.get("/v1/outbox?limit=100").body) as? [[String: Any]])
        #expect(
            Set(outbox.compactMap { $0["to"] as? String }) == Set((1...12).map { String(format: "sim-p%05d@example.com", $0) }),
            "the passengers registered themselves, each sent a confirmation e-mail")
        let fleet = try await service.get("/v1/fleet")
        let taxis = try #require(try JSONSerialization.jsonObject(with: fleet.body) as? [[String: Any]])
        #expect(taxis.count == 8, "every simulated taxi is in the live fleet")
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
