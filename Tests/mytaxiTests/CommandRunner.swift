import Foundation

/// Runs the built `mytaxi` executable as a user would, for contract tests.
enum CommandRunner {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `mytaxi` binary beside the test bundle (the same build), or `MYTAXI_BIN`.
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["MYTAXI_BIN"] { return URL(fileURLWithPath: explicit) }
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("mytaxi")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mytaxi")
    }

    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var lines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// Runs `mytaxi arguments...` in the package root, feeding `input` on
    /// standard input, with `environment` added to the test's own; tells
    /// `started` the process id once it runs (to signal it). The
    /// process runs in one of ``ChildProcessSlots/commands`` and is waited
    /// for off the cooperative pool (``offThePool(_:)``).
    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:],
        started: @escaping @Sendable (Int32) -> Void = { _ in }
    ) async throws -> Result {
        try await ChildProcessSlots.commands.run {
            try await offThePool { try runBlocking(arguments, input: input, environment: environment, started: started) }
        }
    }

    private static func runBlocking(
        _ arguments: [String], input: String, environment: [String: String], started: (Int32) -> Void
    ) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.currentDirectoryURL = packageRoot
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        started(process.processIdentifier)
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = ReadAll(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
                      standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Reads a pipe to its end on a thread of its own, so neither pipe can fill and block.
    final class ReadAll: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }.start()
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
}
