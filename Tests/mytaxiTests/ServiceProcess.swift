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

    /// Starts `mytaxi serve arguments...` with every port chosen by the OS, and
    /// waits until each listener reported its port on standard output. The
    /// demo city's graph is added when neither the arguments nor a config
    /// file name one.
    init(arguments: [String], directory: URL, expectedListeners: Set<String>) throws {
        errorLog = directory.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.executableURL = CommandRunner.binary
        let graph = arguments.contains("--graph") || arguments.contains("--config") ? [] : ["--graph", try DemoGraph.path()]
        process.arguments = ["serve"] + arguments + graph
        process.currentDirectoryURL = directory
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
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

    /// GET on the HTTP API; the body and status.
    func get(_ path: String, port: Int? = nil) throws -> (status: Int, body: Data) {
        guard let port = port ?? ports["http"], let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw ServiceProcessError("no HTTP port")
        }
        return Self.get(url)
    }

    /// GET `url`: the status (0 when the request failed, e.g. refused or
    /// timed out after `timeout` seconds) and the body.
    static func get(_ url: URL, timeout: Double = 60) -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
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
