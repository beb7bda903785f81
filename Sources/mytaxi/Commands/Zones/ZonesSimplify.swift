import ArgumentParser
import GeoKit
import JSONKit
import ServeConfig
import Zones
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones simplify FILE --tolerance METRES [-o OUT]`: fewer vertices, same topology.
    struct Simplify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Simplify a zone set's borders, keeping shared borders shared.",
            discussion: """
                Simplifies every border once (Douglas-Peucker, topology-preserving, on a local \
                projection in metres), so that zones sharing a border still share it, neighbours stay \
                neighbours and no gap or overlap appears; junctions where three zones meet stay where \
                they are. Writes the zone file with the new geometries (to standard output without \
                -o), every other member as read, and on standard error the vertex count before and \
                after. The result is checked as `zones validate` would. Exit status: 0, 1 when the \
                file has problems or a zone would vanish, 2 on misuse.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @Option(help: ArgumentHelp("How far a border may move, in metres.", valueName: "METRES"))
        var tolerance: Double

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the simplified file.", valueName: "FILE"))
        var output: String?

        @OptionGroup var zoneFile: ZoneSetArguments

        func validate() throws {
            guard tolerance > 0, tolerance.isFinite else {
                throw ValidationError("--tolerance must be a positive number of metres")
            }
        }

        func run() throws {
            let source = try runZoneTool { () throws(ZoneToolError) in try GeoJSONFile(path: file) }
            let zoneSet = try runZoneTool { () throws(ZoneToolError) in try zoneFile.load(file) }
            let simplified = try runZoneTool { () throws(ZoneToolError) in
                do {
                    return try ZoneSimplify(zoneSet: zoneSet, toleranceMetres: tolerance, path: file,
                                            progress: { printError("simplify: \($0)") })
                } catch let error as ZoneToolError {
                    throw error
                } catch {
                    throw ZoneToolError.invalidData(path: file, problems: [ZoneProblem(subject: "file", message: "\(error)")])
                }
            }
            let document = try runZoneTool { () throws(ZoneToolError) in
                try simplified.document(from: source, idProperty: zoneFile.properties.idProperty)
            }
            do {
                _ = try ZoneFileLoader.load(document: document, options: zoneFile.options)
            } catch {
                printError(ZoneToolError(error, path: "the simplified \(file)").description)
                throw ExitCode(1)
            }
            try writeToolOutput(document.serialized, to: output)
            printError("simplify: \(simplified.summary)")
        }
    }
}
