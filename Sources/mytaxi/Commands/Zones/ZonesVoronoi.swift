import ArgumentParser
import GeoKit
import Zones
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones voronoi --boundary FILE --sites FILE [-o OUT]`: one zone per taxi rank.
    struct Voronoi: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a zone set of Voronoi cells around taxi ranks, clipped to a boundary.",
            discussion: """
                Each rank (a Point feature of --sites, e.g. OSM amenity=taxi nodes) gets the part of \
                the service area nearer to it than to any other rank, measured in metres on a local \
                projection. A zone takes its rank's id (feature id, else properties.id) and name \
                (name, else ref, else addr:street, else the id), and keeps the rank's position in \
                `site`. Writes a zone file (to standard output without -o). Exit status 1 names \
                ranks without an id or position, or two at the same place.
                """)

        @Option(help: ArgumentHelp("The service area's boundary (GeoJSON).", valueName: "FILE"))
        var boundary: String

        @Option(help: ArgumentHelp("The taxi ranks: a GeoJSON FeatureCollection of Points.", valueName: "FILE"))
        var sites: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the zone file.", valueName: "FILE"))
        var output: String?

        func run() throws {
            let area = try runZoneTool { () throws(ZoneToolError) in try BoundaryFile.read(path: boundary) }
            let ranks = try runZoneTool { () throws(ZoneToolError) in try TaxiRank.read(try GeoJSONFile(path: sites)) }
            let zones = try runZoneTool { () throws(ZoneToolError) in
                do {
                    return try ZoneVoronoi.cells(boundary: area, ranks: ranks, path: sites)
                } catch let error as ZoneToolError {
                    throw error
                } catch {
                    throw ZoneToolError.invalidData(path: sites, problems: [.init(subject: "file", message: "\(error)")])
                }
            }
            try writeToolOutput(GeneratedZone.zoneFile(zones).serialized, to: output)
            printError("voronoi: \(zones.count) zones around \(ranks.count) ranks")
        }
    }
}
