import ArgumentParser
import Foundation
import GeoKit
import Routing

extension Mytaxi.Graph {
    /// `mytaxi graph info CITY.graph`: what a graph file holds.
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a graph file: profile, time zone, speed profile, nodes, edges, bounding box, sections.",
            discussion: "Exit status: 0 on success, 2 when the file cannot be read or is not a valid graph file.")

        @Argument(help: ArgumentHelp("The graph file.", valueName: "CITY.graph"))
        var file: String

        func run() throws {
            let clock = ContinuousClock()
            let start = clock.now
            let contents: GraphFile.Contents
            do {
                contents = try GraphFile.read(from: URL(fileURLWithPath: file))
            } catch {
                printError("\(file): \(error)")
                throw ExitCode(2)
            }
            let loadTime = clock.now - start
            let graph = contents.graph
            let box = BoundingBox(enclosing: graph.coordinates).map(\.description) ?? "none"
            let source = contents.extraSections[GraphSource.sectionName]
                .map { payload in (try? GraphSource(sectionPayload: payload))?.description ?? "unreadable" } ?? "unknown"
            let extras = contents.extraSections.sorted { $0.key < $1.key }
                .map { "\($0.key) (\($0.value.count) bytes)" }
            let timeZone = RoutingGraph.timeZone(in: contents)
            let speedProfile: String
            do {
                speedProfile = try RoutingGraph.speedProfile(in: contents).summary
            } catch {
                speedProfile = "unreadable (\(error))"
            }
            print("""
                file: \(file)
                profile: \(contents.profileName)
                source: \(source)
                time zone: \(timeZone?.identifier ?? "none (departure hours in UTC)")
                speed profile: \(speedProfile)
                nodes: \(graph.nodeCount)
                edges: \(graph.edgeCount)
                bounding box: \(box)
                sections: \((GraphFile.coreSectionNames + extras).joined(separator: ", "))
                load time: \(milliseconds(loadTime))
                """)
            if timeZone == nil { printError(RoutingGraph.missingTimeZoneWarning(graphPath: file)) }
        }
    }
}
