import Foundation
import Synchronization

/// The demo city's road graph (Midtown Manhattan, from the shipped extract),
/// built once per test run for every test that starts `mytaxi serve`, which
/// needs one for the dispatcher's ETAs.
enum DemoGraph {
    /// The build, started by the first test that asks and awaited by all.
    private static let build = Mutex<Task<String, any Error>?>(nil)

    /// The graph file's path, building it on first use.
    /// - Throws: when `mytaxi graph build` fails, with its standard error.
    static func path() async throws -> String {
        let build = build.withLock { build in
            if let build { return build }
            let started = Task { try await buildGraph() }
            build = started
            return started
        }
        return try await build.value
    }

    private static func buildGraph() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-demo-graph-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let graph = folder.appendingPathComponent("midtown.graph").path
        let build = try await CommandRunner.run([
            "graph", "build", "Maps/manhattan-midtown.osm.pbf", "-o", graph, "--time-zone", "America/New_York",
        ])
        guard build.status == 0 else { throw ServiceProcessError("mytaxi graph build failed: \(build.standardError)") }
        return graph
    }
}
