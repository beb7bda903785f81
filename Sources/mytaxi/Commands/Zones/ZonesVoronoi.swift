import ArgumentParser
import GeoKit
import JSONKit
import Zones
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones voronoi --boundary FILE --sites FILE|--osm MAP.osm.pbf [-o OUT]`: one zone per taxi rank.
    struct Voronoi: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a zone set of Voronoi cells around taxi ranks, clipped to a boundary.",
            discussion: """
                Each rank gets the part of the service area nearer to it than to any other rank, \
                measured in metres on a local projection. The ranks are the Point features of \
                --sites (a zone takes the feature id, else properties.id, and the name, else ref, \
                else addr:street, else the id), or the OpenStreetMap amenity=taxi nodes and ways of \
                --osm (a way at the mean of its nodes; the id is n or w and the OSM id, the name its \
                name, else ref, else addr:street, else the id). A zone keeps its rank's position in `site`. Writes a \
                zone file (to standard output without -o). Exit status 1 names ranks without an id \
                or position, or two at the same place; 2 when neither or both of --sites and --osm \
                are given.
                """)

        @Option(help: ArgumentHelp("The service area's boundary (GeoJSON).", valueName: "FILE"))
        var boundary: String

        @Option(help: ArgumentHelp("The taxi ranks: a GeoJSON FeatureCollection of Points.", valueName: "FILE"))
        var sites: String?

        @Option(help: ArgumentHelp("The taxi ranks: the amenity=taxi nodes and ways of an OpenStreetMap file.", valueName: "MAP.osm.pbf"))
        var osm: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the zone file.", valueName: "FILE"))
        var output: String?

        func validate() throws {
            guard (sites == nil) != (osm == nil) else { throw ValidationError("give the taxi ranks with one of --sites FILE and --osm MAP.osm.pbf") }
        }

        func run() throws {
            let area = try runZoneTool { () throws(ZoneToolError) in try BoundaryFile.read(path: boundary) }
            let ranks = try runZoneTool { () throws(ZoneToolError) in
                if let osm { try TaxiRank.read(osm: osm) } else { try TaxiRank.read(try GeoJSONFile(path: sites ?? "")) }
            }
            let source = osm ?? sites ?? ""
            let zones = try runZoneTool { () throws(ZoneToolError) in
                do {
                    return try ZoneVoronoi.cells(boundary: area, ranks: ranks, path: source)
                } catch let error as ZoneToolError {
                    throw error
                } catch {
                    throw ZoneToolError.invalidData(path: source, problems: [.init(subject: "file", message: "\(error)")])
                }
            }
            try writeToolOutput(GeneratedZone.zoneFile(zones).serialized, to: output)
            printError("voronoi: \(zones.count) zones around \(ranks.count) ranks")
        }
    }
}
