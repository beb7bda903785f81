import ArgumentParser
import GeoKit
import JSONKit
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones repair FILE [-o OUT]`: a zone file with what can safely be repaired repaired.
    struct Repair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Repair a zone file where that is safe, and say what changed per feature.",
            discussion: """
                Sets ring winding to RFC 7946's, drops repeated consecutive positions, and makes \
                invalid polygons valid with GEOS's MakeValid (keeping only the polygons) when its \
                two methods, linework and structure, agree on the area. Writes the repaired \
                FeatureCollection (to standard output without -o); on standard error, one line per \
                feature changed or not safe to repair ("ID: repaired: ...", "ID: not repaired: ..."), \
                then a summary. Exit status: 0 when every feature is valid now, 1 when some were \
                not safe to repair (left as they were), 2 when the file cannot be read.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the repaired file.", valueName: "FILE"))
        var output: String?

        @Option(name: .customLong("id-property"), help: ArgumentHelp(
            "The property holding each zone's id (default: the feature id, then properties.id).",
            valueName: "NAME"))
        var idProperty: String?

        func run() throws {
            let repair = try runZoneTool { () throws(ZoneToolError) in
                try ZoneRepair(file: try GeoJSONFile(path: file), idProperty: idProperty)
            }
            try writeToolOutput(repair.document.serialized, to: output)
            for line in repair.report { printError(line) }
            if !repair.leftAsIs.isEmpty { throw ExitCode(1) }
        }
    }
}
