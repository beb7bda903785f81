import Foundation
import Synchronization

/// The demo city's road graph (Midtown Manhattan, from the shipped extract),
/// built once per test run for every test that starts `mytaxi serve`, which
/// needs one for the dispatcher's ETAs.
enum DemoGraph {
    private static let built = Mutex<String?>(nil)

    /// The graph file's path, building it on first use.
    /// - Throws: when `mytaxi graph build` fails, with its standard error.
    static func path() throws -> String {
        try built.withLock { path in
            if let path { return path }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-demo-graph-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let graph = folder.appendingPathComponent("midtown.graph").path
            let build = try CommandRunner.run([
                "graph", "build", "Maps/manhattan-midtown.osm.pbf", "-o", graph, "--time-zone", "America/New_York",
            ])
            guard build.status == 0 else { throw ServiceProcessError("mytaxi graph build failed: \(build.standardError)") }
            path = graph
            return graph
        }
    }
}
