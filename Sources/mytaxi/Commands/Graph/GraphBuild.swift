import ArgumentParser
import Foundation
import Routing

extension Mytaxi.Graph {
    /// `mytaxi graph build MAP -o CITY.graph [--profile car|foot]`.
    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build a road graph file from an OpenStreetMap extract.",
            discussion: """
                Progress goes to standard error; the summary (nodes, edges, dropped nodes, turn \
                restrictions, build time, file size) to standard output, one "name: value" per line. \
                Exit status: 0 on success, 1 when no road is routable or the file cannot be written, \
                2 when the map cannot be read.
                """)

        @Argument(help: "The OpenStreetMap extract (.osm.pbf, or .osm XML).")
        var map: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The graph file to write.", valueName: "CITY.graph"))
        var output: String

        @Option(help: ArgumentHelp("The routing profile: car or foot.", valueName: "NAME"))
        var profile = "car"

        @Option(name: .customLong("time-zone"), help: ArgumentHelp(
            "The city's time zone (IANA name, e.g. America/New_York), stored for departure hours. (default: none, queries use UTC)",
            valueName: "NAME"))
        var timeZone: String?

        @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
            "A weekly speed profile file (docs/speed-profile.md) stored as the city's. (default: none, the built-in dense-city profile)",
            valueName: "FILE"))
        var speedProfile: String?

        func validate() throws {
            guard RoutingProfiles.named(profile) != nil else {
                throw ValidationError("unknown profile '\(profile)': choose " + RoutingProfiles.all.map(\.name).joined(separator: " or "))
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("unknown time zone '\(timeZone)' (use an IANA name such as Europe/Monaco)")
            }
        }

        func run() throws {
            let routingProfile = RoutingProfiles.named(profile)!
            let speedProfileText = try speedProfile.map(readSpeedProfile)?.text
            let clock = ContinuousClock()
            let start = clock.now

            printError("reading \(map)")
            let extract: OSMExtract
            do {
                extract = try OSMExtract(contentsOf: map)
            } catch {
                printError("\(error)")
                throw ExitCode(2)
            }
            printError("read \(extract.ways.count) highway ways, \(extract.nodeIDs.count) nodes, "
                       + "\(extract.restrictions.count) restriction relations in \(seconds(clock.now - start))")

            let result = GraphBuilder.build(extract, profile: routingProfile) { stage in printError(stage.rawValue) }
            guard result.graph.nodeCount > 0 else {
                printError("\(map): no road is routable with the \(profile) profile")
                throw ExitCode(1)
            }

            printError("ordering and contracting for queries (CCH)")
            let topology = CCHTopology(graph: result.graph)
            printError("writing \(output)")
            let url = URL(fileURLWithPath: output)
            do {
                let source = try GraphSource(describing: map)
                let routing = RoutingGraph.sections(
                    for: result.graph, topology: topology, timeZone: timeZone.flatMap(TimeZone.init(identifier:)),
                    speedProfileText: speedProfileText)
                try GraphFile.write(graph: result.graph, profile: routingProfile.name,
                                    extraSections: routing.merging([GraphFile.wayIDSection: GraphFile.bytes(of: result.edgeWayIDs),
                                                                    GraphSource.sectionName: source.sectionPayload]) { $1 },
                                    to: url)
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
            let elapsed = clock.now - start
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            print(summary(result, elapsed: elapsed, fileSize: size))
        }

        private func summary(_ result: GraphBuildResult, elapsed: Duration, fileSize: Int) -> String {
            let statistics = result.statistics
            let skipped = statistics.restrictionsSkipped.sorted { $0.key < $1.key }
                .map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            return """
                nodes: \(result.graph.nodeCount)
                edges: \(result.graph.edgeCount)
                dropped nodes: \(statistics.droppedNodes) (outside the largest strongly connected component)
                restrictions: \(statistics.restrictionsApplied) applied, \(statistics.restrictionsSkippedTotal) skipped\
                \(skipped.isEmpty ? "" : " (\(skipped))")
                missing nodes: \(statistics.missingNodeReferences) references, \(statistics.waysWithMissingNodes) ways split
                build time: \(seconds(elapsed))
                file: \(output), \(fileSize) bytes
                """
        }
    }
}
