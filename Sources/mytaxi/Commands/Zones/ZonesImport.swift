import ArgumentParser
import GeoKit
import JSONKit
import ServeConfig
import Zones
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones import FILE --from-crs EPSG:NNNN [-o OUT]`: a projected zone file to WGS84.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Reproject a zone file drawn in a projected CRS to WGS84, then validate it.",
            discussion: """
                Cities publish zones in their state-plane or national grid (New York's EPSG:2263, in US \
                feet). Every Polygon and MultiPolygon is reprojected with PROJ to WGS84 longitude and \
                latitude (RFC 7946; a `crs` member is dropped), written (to standard output without \
                -o), then checked as `zones validate` does. Exit status: 0 when the result is a valid \
                zone file, 1 when a feature cannot be reprojected or the result has problems (listed \
                on standard error), 2 when the file cannot be read or PROJ does not know the CRS.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection in the CRS given).")
        var file: String

        @Option(name: .customLong("from-crs"), help: ArgumentHelp("The file's CRS, e.g. EPSG:2263.", valueName: "CRS"))
        var fromCRS: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the reprojected file.", valueName: "FILE"))
        var output: String?

        @OptionGroup var zoneFile: ZoneFileArguments

        func run() throws {
            let transform: CRSTransform
            do {
                transform = try CRSTransform(from: fromCRS)
            } catch {
                printError("--from-crs \(fromCRS): \(error)")
                throw ExitCode(2)
            }
            let imported = try runZoneTool { () throws(ZoneToolError) in
                try ZoneImport(file: try GeoJSONFile(path: file), crs: transform, idProperty: zoneFile.idProperty)
            }
            try writeToolOutput(imported.document.serialized, to: output)
            do {
                let loaded = try ZoneFileLoader.load(document: imported.document, options: zoneFile.options)
                printError("import: \(imported.features) features reprojected from \(fromCRS); "
                    + "valid, \(loaded.zoneSet.zones.count) zones, \(loaded.warnings.count) repair(s) on load")
            } catch .invalid(let problems, _) {
                printError("import: \(imported.features) features reprojected from \(fromCRS), but the result has "
                    + "\(problems.count) problem(s):")
                for problem in problems { printError(problem.description) }
                throw ExitCode(1)
            } catch {
                printError("import: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
