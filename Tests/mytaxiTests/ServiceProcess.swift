import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `mytaxi serve` process started by a test, with the ports it reported.
final class ServiceProcess: @unchecked Sendable {
    let process = Process()
    private(set) var ports: [String: Int] = [:]
    private let output = Pipe()
    let errorLog: URL

    /// The administrator every test service has, made in its data directory
    /// before it starts, whose token ``get(_:port:)`` sends to `/v1/...`.
    static let administrator = (username: "test-admin", password: "test-admin-pass-1")
    private var administratorToken: String?

    /// Starts `mytaxi serve arguments...` with every port chosen by the OS, and
    /// waits until each listener reported its port on standard output. The
    /// demo city's graph is added when neither the arguments nor a config
    /// file name one. `openFiles`, when given, is the open-file limit the
    /// service starts under (set with the shell's `ulimit`), as a service
    /// manager's would be.
    init(
        arguments: [String], directory: URL, expectedListeners: Set<String>, openFiles: (soft: Int, hard: Int)? = nil
    ) throws {
        let dataDirectory = arguments.firstIndex(of: "--data-dir").map { arguments[$0 + 1] } ?? "data"
        // The accounts are where the service keeps them: PostgreSQL when it has a --database.
        let database = arguments.firstIndex(of: "--database").map { ["--database", arguments[$0 + 1]] } ?? []
        _ = try CommandRunner.run(
            ["accounts", "create", "--data-dir", directory.appendingPathComponent(dataDirectory).path, "--role", "administrator",
             "--username", Self.administrator.username, "--password-stdin"] + database,
            input: Self.administrator.password + "\n")
        errorLog = directory.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let graph = arguments.contains("--graph") || arguments.contains("--config") ? [] : ["--graph", try DemoGraph.path()]
        if let openFiles {
            // The soft limit first: a hard limit below the soft one in force is refused.
            let limits = "ulimit -S -n \(openFiles.soft) && ulimit -H -n \(openFiles.hard)"
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(limits) && exec \"$0\" \"$@\"", CommandRunner.binary.path, "serve"] + arguments + graph
        } else {
            process.executableURL = CommandRunner.binary
            process.arguments = ["serve"] + arguments + graph
        }
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var pending = ""
        while !expectedListeners.isSubset(of: Set(ports.keys)) {
            guard Date() < deadline, process.isRunning else {
                throw ServiceProcessError("mytaxi serve did not report its listeners: \(try String(contentsOf: errorLog, encoding: .utf8))")
            }
            let chunk = output.fileHandleForReading.availableData
            pending += String(decoding: chunk, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline].split(separator: " ")
                pending = String(pending[pending.index(after: newline)...])
                if line.count == 3, line[0] == "listening", let port = line[2].split(separator: ":").last.flatMap({ Int($0) }) {
                    ports[String(line[1])] = port
                }
            }
        }
    }

    /// What the service has logged so far (its standard error).
    func log() throws -> String {
        try String(contentsOf: errorLog, encoding: .utf8)
    }

    /// SIGKILL: no chance to flush anything.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the graceful exit.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// GET on the HTTP API (as the test administrator for `/v1/...`), or
    /// on another of the service's HTTP ports; the status and body.
    /// GET of `taxi`'s archived fixes in the longest window one request may
    /// ask for (7 days): from six and a half days ago to half a day ahead,
    /// all in one page.
    func recentFixes(of taxi: String) throws -> (status: Int, body: Data) {
        let now = Date()
        let format = ISO8601DateFormatter()
        let (from, to) = (format.string(from: now.addingTimeInterval(-6.5 * 86_400)), format.string(from: now.addingTimeInterval(0.5 * 86_400)))
        return try get("/v1/taxis/\(taxi)/fixes?from=\(from)&to=\(to)&limit=50000")
    }

    func get(_ path: String, port: Int? = nil) throws -> (status: Int, body: Data) {
        if port == nil, path.hasPrefix("/v1/") { return try call("GET", path, token: try administratorSession()) }
        guard let port = port ?? ports["http"], let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw ServiceProcessError("no HTTP port")
        }
        return Self.get(url)
    }

    /// The test administrator's bearer token, logging in the first time.
    func administratorSession() throws -> String {
        if let administratorToken { return administratorToken }
        let (username, password) = Self.administrator
        let answer = try call("POST", "/v1/sessions", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        guard answer.status == 201,
              let token = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["token"] as? String else {
            throw ServiceProcessError("the test administrator cannot log in: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        administratorToken = token
        return token
    }

    /// `method path` on the HTTP API with a bearer `token` and a JSON `body`; the status and body.
    func call(_ method: String, _ path: String, token: String? = nil, json: String? = nil) throws -> (status: Int, body: Data) {
        guard let port = ports["http"], let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw ServiceProcessError("no HTTP port")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        return Self.send(request)
    }

    /// GET `url`: the status (0 when the request failed, e.g. refused or
    /// timed out after `timeout` seconds) and the body.
    static func get(_ url: URL, timeout: Double = 60) -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return send(request)
    }

    /// Sends `request` and waits: the status (0 when it failed) and the body.
    static func send(_ request: URLRequest) -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, Data) = (0, Data())
        URLSession.shared.dataTask(with: request) { data, response, _ in
            result = ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
            done.signal()
        }.resume()
        done.wait()
        return result
    }
}

struct ServiceProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
