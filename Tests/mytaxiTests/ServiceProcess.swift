import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import TestSupport

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
    /// Whether the service holds one of ``ChildProcessSlots/services``,
    /// which it gives back once its process has ended.
    private let holdsSlot = Atomic(false)

    /// Starts `mytaxi serve arguments...` with every port chosen by the OS, and
    /// waits until each listener reported its port on standard output. The
    /// demo city's graph is added when neither the arguments nor a config
    /// file name one. `openFiles`, when given, is the open-file limit the
    /// service starts under (set with the shell's `ulimit`), as a service
    /// manager's would be. The service waits for a free slot
    /// (``ChildProcessSlots/services``) before it starts.
    init(
        arguments: [String], directory: URL, expectedListeners: Set<String>, openFiles: (soft: Int, hard: Int)? = nil
    ) async throws {
        errorLog = directory.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).log")
        await ChildProcessSlots.services.take()
        holdsSlot.store(true, ordering: .releasing)
        do {
            try await start(arguments: arguments, directory: directory, expectedListeners: expectedListeners, openFiles: openFiles)
        } catch {
            stopProcess(with: { $0.terminate() })
            throw error
        }
    }

    private func start(
        arguments: [String], directory: URL, expectedListeners: Set<String>, openFiles: (soft: Int, hard: Int)?
    ) async throws {
        let dataDirectory = arguments.firstIndex(of: "--data-dir").map { arguments[$0 + 1] } ?? "data"
        // The accounts are where the service keeps them: PostgreSQL when it has a --database.
        let database = arguments.firstIndex(of: "--database").map { ["--database", arguments[$0 + 1]] } ?? []
        _ = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", directory.appendingPathComponent(dataDirectory).path, "--role", "administrator",
             "--username", Self.administrator.username, "--password-stdin"] + database,
            input: Self.administrator.password + "\n")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let graph = arguments.contains("--graph") || arguments.contains("--config") ? [] : ["--graph", try await DemoGraph.path()]
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
        try await offThePool { try self.readListenerPorts(until: expectedListeners) }
    }

    /// Reads the service's standard output until every listener in
    /// `expected` has reported its port (blocking; at most 60 s).
    private func readListenerPorts(until expectedListeners: Set<String>) throws {
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
        stopProcess(with: { Foundation.kill($0.processIdentifier, SIGKILL) })
    }

    /// SIGTERM, then waits for the graceful exit.
    func stop() {
        stopProcess(with: { $0.terminate() })
    }

    deinit {
        stopProcess(with: { $0.terminate() })
    }

    /// Signals the process with `signal` if it is running, waits for it to
    /// end, and gives its slot back (once).
    private func stopProcess(with signal: (Process) -> Void) {
        if process.isRunning {
            signal(process)
            process.waitUntilExit()
        }
        let (gaveBack, _) = holdsSlot.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing)
        if gaveBack { ChildProcessSlots.services.giveBack() }
    }

    /// GET on the HTTP API (as the test administrator for `/v1/...`), or
    /// on another of the service's HTTP ports; the status and body.
    /// GET of `taxi`'s archived fixes in the longest window one request may
    /// ask for (7 days): from six and a half days ago to half a day ahead,
    /// all in one page.
    func recentFixes(of taxi: String) async throws -> (status: Int, body: Data) {
        let now = Date()
        let format = ISO8601DateFormatter()
        let (from, to) = (format.string(from: now.addingTimeInterval(-6.5 * 86_400)), format.string(from: now.addingTimeInterval(0.5 * 86_400)))
        return try await get("/v1/taxis/\(taxi)/fixes?from=\(from)&to=\(to)&limit=50000")
    }

    func get(_ path: String, port: Int? = nil) async throws -> (status: Int, body: Data) {
        if port == nil, path.hasPrefix("/v1/") { return try await call("GET", path, token: try await administratorSession()) }
        guard let port = port ?? ports["http"], let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw ServiceProcessError("no HTTP port")
        }
        return await Self.get(url)
    }

    /// The test administrator's bearer token, logging in the first time.
    /// A 503 is retried, as a client does: a node of several answers it to
    /// a login in the moments before a node decides dispatch.
    func administratorSession() async throws -> String {
        if let administratorToken { return administratorToken }
        let (username, password) = Self.administrator
        let answer = try await waitUntil("the test administrator's login answered other than 503", within: .seconds(30)) {
            try await call("POST", "/v1/sessions", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        } satisfies: { $0.status != 503 }
        guard answer.status == 201,
              let token = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["token"] as? String else {
            throw ServiceProcessError("the test administrator cannot log in: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        administratorToken = token
        return token
    }

    /// `method path` on the HTTP API with a bearer `token` and a JSON `body`; the status and body.
    func call(
        _ method: String, _ path: String, token: String? = nil, json: String? = nil, headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data) {
        guard let port = ports["http"], let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw ServiceProcessError("no HTTP port")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        return await Self.send(request)
    }

    /// GET `url`: the status (0 when the request failed, e.g. refused or
    /// timed out after `timeout` seconds) and the body.
    static func get(_ url: URL, timeout: Double = 60) async -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return await send(request)
    }

    /// Sends `request` and waits, holding no thread: the status (0 when it
    /// failed) and the body.
    static func send(_ request: URLRequest) async -> (status: Int, body: Data) {
        await withCheckedContinuation { continuation in send(request) { continuation.resume(returning: $0) } }
    }

    /// GET `url` from code on a thread of its own, blocking it (never on a
    /// task): the status (0 when it failed) and the body.
    static func getBlocking(_ url: URL) -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: (status: Int, body: Data) = (0, Data())
        send(URLRequest(url: url)) { received in
            answer = received
            done.signal()
        }
        done.wait()
        return answer
    }

    private static func send(_ request: URLRequest, then answer: @escaping @Sendable ((status: Int, body: Data)) -> Void) {
        URLSession.shared.dataTask(with: request) { data, response, _ in
            answer(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
        }.resume()
    }
}

struct ServiceProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
