import ArgumentParser
import Foundation
import GeoKit
import Routing
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones render FILE -o FILE.svg|FILE.png [--graph FILE] [--labels]`: a picture of the zones.
    struct Render: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the zones as SVG or PNG, with ids and names, over the road graph.",
            discussion: """
                Each zone is filled in a colour none of its neighbours has, with its id (and its name \
                with --labels) at a point inside it; --graph draws the roads of a graph file (from \
                `mytaxi graph build`) beneath. North is up, on a local projection. The format follows \
                -o's extension: .svg, or .png through rsvg-convert (Debian package librsvg2-bin), which \
                must then be installed. Without -o, SVG goes to standard output.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The picture to write: FILE.svg or FILE.png.", valueName: "FILE"))
        var output: String?

        @Option(help: ArgumentHelp("A road graph file to draw beneath the zones.", valueName: "FILE"))
        var graph: String?

        @Flag(help: "Write each zone's name below its id.")
        var labels = false

        @Option(help: ArgumentHelp("The picture's width in pixels.", valueName: "PIXELS"))
        var width = 1200.0

        @OptionGroup var zoneFile: ZoneSetArguments

        func validate() throws {
            if let output, !output.hasSuffix(".svg"), !output.hasSuffix(".png") {
                throw ValidationError("-o must name a .svg or .png file, not '\(output)'")
            }
            guard width >= 100, width <= 20_000 else { throw ValidationError("--width must be 100 to 20000 pixels") }
        }

        func run() throws {
            let zoneSet = try runZoneTool { () throws(ZoneToolError) in try zoneFile.load(file) }
            let roads = try graph.map(Self.roads) ?? []
            let picture = try ZoneMapSVG(zoneSet: zoneSet, roads: roads, labels: labels, width: width)
            if let output, output.hasSuffix(".png") {
                try PNGRasterizer.write(svg: picture.text, to: output)
            } else {
                try writeToolOutput(picture.text, to: output)
            }
        }

        /// Each road of the graph once (one direction of a two-way road).
        private static func roads(_ path: String) throws -> [ZoneMapSVG.RoadSegment] {
            let graph: RoadGraph
            do {
                graph = try GraphFile.read(from: URL(fileURLWithPath: path)).graph
            } catch {
                printError("--graph \(path): \(error)")
                throw ExitCode(2)
            }
            var segments: [ZoneMapSVG.RoadSegment] = []
            for node in 0..<graph.nodeCount {
                for edge in graph.edges(from: node) {
                    let head = Int(graph.edgeHead[edge])
                    let twoWay = graph.edges(from: head).contains { Int(graph.edgeHead[$0]) == node }
                    if !twoWay || node < head { segments.append((graph.coordinates[node], graph.coordinates[head])) }
                }
            }
            return segments
        }
    }
}
