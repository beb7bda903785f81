import DispatchCore
import FixRecords
import Foundation
import FoundationNetworking
import Testing
import TestSupport
import Zones

/// SPEC Z4 with the real binaries: zone sets swapped back and forth in a
/// running `mytaxi serve` while `mytaxi-loadgen` streams fixes; a changed
/// zones file put in force by SIGHUP; a restart on another zone file.
@Suite(.serialized, .timeLimit(.minutes(20))) struct ZoneHotReloadTests {
    static let manhattan = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson")
    static let bbox = "--bbox=-74.00,40.74,-73.97,40.77"
    static let drivers = 5

    /// The zone ids of a zone file: each feature's `id`, else `properties.id`.
    static func zoneIDs(of geoJSON: Data) throws -> Set<String> {
        let document = try #require(try JSONSerialization.jsonObject(with: geoJSON) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        return Set(features.compactMap { feature in
            let id = feature["id"] ?? (feature["properties"] as? [String: Any])?["id"]
            return id.map { "\($0)" }
        })
    }

    /// Swaps between the Manhattan zones and a 1.5 km grid over them ten
    /// times while 100 taxis stream: no fix lost; after each swap every
    /// taxi's zone is the one the new set gives its position, and the
    /// dispatcher's queues hold only zones of the new set, each queued
    /// taxi once, where its own record says.
    @Test func swapsUnderAStreamOfFixesLoseNothingAndLeaveEveryTaxiInTheNewSet() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await DurabilityTests.run(DurabilityTests.loadgen, ["--devices", "100", "--write-devices", "devices.csv"], in: directory)
        let grid = directory.appendingPathComponent("grid.geojson")
        let made = try await CommandRunner.run(["zones", "grid", "--boundary", Self.manhattan.path, "--cell", "1500", "-o", grid.path])
        #expect(made.status == 0, "\(made.standardError)")
        let sets = [try Data(contentsOf: Self.manhattan), try Data(contentsOf: grid)]
        let ids = try sets.map(Self.zoneIDs)

        // The stream lasts 15 s; a machine busy with the other suites can take longer than the
        // 90 s staleness limit to reach the swaps, and a stale taxi leaves its queue.
        let service = try await ServiceProcess(
            arguments: DurabilityTests.serveArguments(only: "line").map { $0.hasSuffix("monaco/zones.geojson") ? Self.manhattan.path : $0 }
                + ["--stale-after", "3600"],
            directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { service.stop() }
        let admin = try await service.administratorSession()
        for set in sets {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(service.ports["http"]!)/v1/zone-sets")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(admin)", forHTTPHeaderField: "Authorization")
            request.httpBody = set
            #expect(await ServiceProcess.send(request).status == 201)
        }
        let taxis = try String(contentsOf: directory.appendingPathComponent("devices.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().prefix(Self.drivers).map { String($0.split(separator: ",")[1]) }
        for taxi in taxis {
            try await DispatchRestartTests.expect(service.call(
                "POST", "/v1/accounts", token: admin,
                json: #"{"role": "driver", "username": "\#(taxi)", "password": "\#(DispatchRestartTests.password)"}"#), 201)
        }

        let load = Process()
        load.executableURL = DurabilityTests.loadgen
        load.arguments = [
            "--port", "\(service.ports["line/tcp"]!)", "--devices", "100", "--window", "4", "--count", "10000000",
            "--duration", "15", "--drain-seconds", "2", Self.bbox, "--metrics-url", "http://127.0.0.1:\(service.ports["http"]!)/metrics",
        ]
        load.currentDirectoryURL = directory
        let report = Pipe()
        load.standardOutput = report
        try load.run()
        try await waitUntil("every streaming taxi in the fleet") {
            try await (JSONSerialization.jsonObject(with: service.call("GET", "/v1/fleet", token: admin).body) as? [Any])?.count ?? 0
        } satisfies: { $0 == 100 }
        // The dispatcher hears of the taxis from the live index, a moment later.
        try await waitUntil("the drivers' taxis known to the dispatcher") {
            try await DispatchRestartTests.state(service, admin).state.taxis.keys.map(\.text)
        } satisfies: { Set(taxis).isSubset(of: $0) }
        for taxi in taxis {
            let driver = try await DispatchRestartTests.login(service, taxi)
            try await DispatchRestartTests.expect(
                service.call("PUT", "/v1/driver/availability", token: driver, json: #"{"available": true}"#), 200)
        }
        try await waitUntil("the available drivers queued") {
            let state = try await DispatchRestartTests.state(service, admin).state
            return (queued: state.taxiQueues.values.map(\.entries.count).reduce(0, +),
                    drivers: taxis.map { "\($0): \(state.taxis[TaxiID($0)].map { "\($0)" } ?? "unknown")" })
        } satisfies: { $0.queued > 0 }

        for swap in 0..<10 {
            let version = swap % 2 == 0 ? 2 : 1
            try await DispatchRestartTests.expect(service.call("POST", "/v1/zone-sets/\(version)/activation", token: admin), 200)
            try await Self.expectEveryTaxiIn(ids[version - 1], service: service, token: admin, context: "swap \(swap) to version \(version)")
        }
        let output = try await offThePool {
            let output = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            load.waitUntilExit()
            return output
        }
        let figures = Dictionary(output.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }, uniquingKeysWith: { first, _ in first })
        #expect(figures["lost (sent - acked)"] == "0", "\(output)")
        #expect(figures["fixes archived"] == figures["fixes acknowledged"], "\(output)")
        #expect(Int(figures["fixes acknowledged"] ?? "") ?? 0 > 1_000, "\(output)")
    }

    /// A changed zones file is put in force by SIGHUP, a broken one is
    /// refused with the running set kept, and a restart on a zones file
    /// other than the one the archive's fixes were zoned with places the
    /// restored taxis under the file's set.
    @Test func sighupPutsAChangedZonesFileInForceAndARestartRezonesRestoredTaxis() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "device_id,taxi_id\nLINE-1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let zones = directory.appendingPathComponent("zones.geojson")
        try FileManager.default.copyItem(at: Self.manhattan, to: zones)
        let grid = directory.appendingPathComponent("grid.geojson")
        #expect(try await CommandRunner.run(["zones", "grid", "--boundary", Self.manhattan.path, "--cell", "1500", "-o", grid.path]).status == 0)
        let arguments = DurabilityTests.serveArguments(only: "line").map { $0.hasSuffix("monaco/zones.geojson") ? zones.path : $0 }
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        let client = try ServeCommandTests.TCPClient(port: service.ports["line/tcp"]!)
        client.send(Array("MT1,LINE-1,1,\(Int(Date().timeIntervalSince1970) - 5),40.7580,-73.9855,10,0,A\n".utf8))
        #expect(client.receive(atLeast: 6).bytes == Array("ACK,1\n".utf8))
        let admin = try await service.administratorSession()
        func zoneOfTX1(_ service: ServiceProcess) async throws -> String? {
            let fleet = try await JSONSerialization.jsonObject(with: service.call("GET", "/v1/fleet", token: try await service.administratorSession()).body)
            return ((fleet as? [[String: Any]])?.first?["position"] as? [String: Any])?["zoneId"] as? String
        }
        func timesSquare() async throws -> String? {
            let answer = try await service.call("GET", "/v1/zones/at?lon=-73.9855&lat=40.758", token: admin)
            return (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["zoneId"] as? String
        }
        #expect(try await zoneOfTX1(service) == "230")

        try FileManager.default.removeItem(at: zones)
        try FileManager.default.copyItem(at: grid, to: zones)
        Foundation.kill(service.process.processIdentifier, SIGHUP)
        try await waitUntil("the grid in force after SIGHUP") { try service.log() } satisfies: { $0.contains("reloaded on SIGHUP") }
        let gridZone = try await timesSquare()
        #expect(gridZone?.hasPrefix("r") == true, "Times Square in a grid cell after SIGHUP, not \(gridZone ?? "outside")")
        #expect(try await zoneOfTX1(service) == gridZone)

        try #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": null}]}"#
            .write(to: zones, atomically: true, encoding: .utf8)
        Foundation.kill(service.process.processIdentifier, SIGHUP)
        try await waitUntil("the broken zones file refused") { try service.log() } satisfies: {
            $0.contains("kept the zones in force: \(zones.path)")
        }
        #expect(try await timesSquare() == gridZone, "a broken file leaves the set in force")
        service.stop()

        try FileManager.default.removeItem(at: zones)
        try FileManager.default.copyItem(at: grid, to: zones)
        let restarted = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { restarted.stop() }
        #expect(try await zoneOfTX1(restarted) == gridZone, "the archive's fix was zoned 230 under the Manhattan set")
    }

    /// Every live taxi is in the zone the set in force gives its position
    /// (checked through `/v1/zones/at` for a sample), and the dispatcher
    /// names only zones of `ids`.
    static func expectEveryTaxiIn(_ ids: Set<String>, service: ServiceProcess, token: String, context: String) async throws {
        let fleet = try await #require(try JSONSerialization.jsonObject(with: service.call("GET", "/v1/fleet", token: token).body) as? [[String: Any]])
        #expect(fleet.count == 100, "\(context)")
        for entry in fleet {
            let position = try #require(entry["position"] as? [String: Any])
            let zone = position["zoneId"] as? String
            #expect(zone.map(ids.contains) ?? true, "\(context): \(position["taxiId"] ?? "?") in \(zone ?? "") of the old set")
        }
        for entry in fleet.prefix(15) {
            let position = try #require(entry["position"] as? [String: Any])
            let (lon, lat) = (try #require(position["lon"] as? Double), try #require(position["lat"] as? Double))
            let answer = try await service.call("GET", "/v1/zones/at?lon=\(lon)&lat=\(lat)", token: token)
            let expected = answer.status == 200
                ? (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["zoneId"] as? String : nil
            // The taxi may have moved on between the two reads: then its own newer position decides.
            let now = try await #require(try JSONSerialization.jsonObject(with: service.call("GET", "/v1/fleet", token: token).body) as? [[String: Any]])
                .first { ($0["position"] as? [String: Any])?["taxiId"] as? String == position["taxiId"] as? String }
            let moved = (now?["position"] as? [String: Any])?["time"] as? String != position["time"] as? String
            if !moved { #expect(position["zoneId"] as? String == expected, "\(context): \(position)") }
        }
        let state = try await DispatchRestartTests.state(service, token).state
        var queued: Set<TaxiID> = []
        for (zone, queue) in state.taxiQueues {
            #expect(ids.contains(zone.text), "\(context): a queue for \(zone), not in the set")
            for taxi in queue.taxis {
                #expect(queued.insert(taxi).inserted, "\(context): \(taxi) queued twice")
                #expect(state.taxis[taxi]?.queuedIn == zone, "\(context): \(taxi) does not know its queue")
            }
        }
        #expect(!queued.isEmpty, "\(context): the available drivers should be queued")
        for (taxi, record) in state.taxis {
            #expect(record.isQueueable == queued.contains(taxi), "\(context): \(taxi) queued \(queued.contains(taxi)) but \(record)")
            #expect(record.zone.map { ids.contains($0.text) } ?? true, "\(context): \(taxi) in \(record.zone!) of the old set")
            #expect(record.pendingZone?.zone.map { ids.contains($0.text) } ?? true, "\(context): \(taxi) dwelling on the old set")
        }
    }
}
