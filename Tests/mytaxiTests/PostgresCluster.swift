import Foundation
import Testing

/// The throwaway PostgreSQL cluster `make test` starts (Tools/with-postgres.sh):
/// fresh databases on it, and stopping and starting its server as a crash
/// and a recovery would. Absent (nil URL) when the tests run without it.
enum PostgresCluster {
    static let environment = ProcessInfo.processInfo.environment
    /// The cluster's URL, nil when no cluster was started.
    static let url = environment["MYTAXI_TEST_DATABASE_URL"]
    /// Whether the cluster is there.
    static var available: Bool { url != nil && environment["MYTAXI_TEST_PG_BIN"] != nil && environment["MYTAXI_TEST_PG_DATA"] != nil }
    /// Why the PostgreSQL tests did not run.
    static let skipReason: Comment =
        "MYTAXI_TEST_DATABASE_URL is not set: `make test` starts a throwaway PostgreSQL (Tools/with-postgres.sh swift test ... does too)"

    /// A new empty database on the cluster; its URL.
    static func createDatabase() throws -> String {
        let url = try #require(url)
        let name = "mytaxi_serve_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try run("psql", [url, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"], asOwner: false)
        var components = try #require(URLComponents(string: url))
        components.path = "/" + name
        return try #require(components.string)
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`).
    static func crash() throws {
        try run("pg_ctl", ["-D", try #require(environment["MYTAXI_TEST_PG_DATA"]), "-m", "immediate", "stop"], asOwner: true)
    }

    /// Starts the server again and waits (up to 30 s) until it accepts
    /// connections. Not by waiting for `pg_ctl`: the server it leaves behind
    /// keeps Foundation from seeing `pg_ctl` end, so `pg_isready` is asked.
    static func start() throws {
        let data = try #require(environment["MYTAXI_TEST_PG_DATA"])
        _ = try launch("pg_ctl", ["-D", data, "-l", data + "/../server.log", "start"], asOwner: true)
        let text = try #require(url)
        let components = try #require(URLComponents(string: text))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let ready = try launch("pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(components.port ?? 5432)"], asOwner: false)
            ready.waitUntilExit()
            if ready.terminationStatus == 0 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ServiceProcessError("PostgreSQL did not start again within 30 s")
    }

    /// Runs one of the cluster's programs, as the owner of its files (the
    /// postgres user when the tests run as root), and requires exit 0.
    private static func run(_ program: String, _ arguments: [String], asOwner: Bool) throws {
        let process = try launch(program, arguments, asOwner: asOwner)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServiceProcessError("\(program) \(arguments.dropFirst().joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    /// Starts one of the cluster's programs, its output discarded.
    private static func launch(_ program: String, _ arguments: [String], asOwner: Bool) throws -> Process {
        let path = try #require(environment["MYTAXI_TEST_PG_BIN"]) + "/" + program
        let process = Process()
        if asOwner && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "postgres", "--", path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
