import ArgumentParser
import Foundation

/// Turns SVG into PNG with `rsvg-convert` (Debian's librsvg2-bin), when it is installed.
enum PNGRasterizer {
    /// The `rsvg-convert` found on `PATH`, or nil.
    static var program: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("rsvg-convert") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Writes `svg` as a PNG file at `path`; exits 2 when rsvg-convert is
    /// missing or fails, naming the Debian package to install.
    static func write(svg: String, to path: String) throws {
        guard let program else {
            printError("cannot write \(path): PNG needs rsvg-convert (Debian package librsvg2-bin); write .svg instead")
            throw ExitCode(2)
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-render-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(svg.utf8).write(to: input)
        let process = Process()
        process.executableURL = program
        process.arguments = ["--format", "png", "--output", path, input.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            printError("cannot write \(path): rsvg-convert exited with status \(process.terminationStatus)")
            throw ExitCode(2)
        }
    }
}
