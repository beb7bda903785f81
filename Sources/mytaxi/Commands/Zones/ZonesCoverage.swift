import ArgumentParser
import GeoKit
import JSONKit
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones coverage FILE --boundary FILE [--geojson]`: gaps and overlaps.
    struct Coverage: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find the gaps inside a service-area boundary and the overlaps between zones.",
            discussion: """
                Prints one line per gap ("gap: AREA at lon,lat") and per overlap ("overlap A/B: AREA \
                at lon,lat"), largest first, each with a point inside it, then a summary; with \
                --geojson, a FeatureCollection of the same areas (properties kind, zones, area_m2, \
                location) to put on a map. The boundary is a GeoJSON Polygon or MultiPolygon, a \
                Feature, or a FeatureCollection whose features are joined. Areas are measured in \
                square metres on a local projection. Exit status: 0 when the zones tile the \
                boundary, 1 when there are gaps or overlaps (or a file has problems), 2 on misuse.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @Option(help: ArgumentHelp("The service area's boundary (GeoJSON).", valueName: "FILE"))
        var boundary: String

        @Flag(help: "Write the gaps and overlaps as a GeoJSON FeatureCollection.")
        var geojson = false

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the result.", valueName: "FILE"))
        var output: String?

        @Option(name: .customLong("min-area"), help: ArgumentHelp(
            "Gaps and overlaps at most this large are noise, not reported, in square metres. (default: 1)",
            valueName: "M2"))
        var minimumArea = 1.0

        @OptionGroup var zoneFile: ZoneSetArguments

        func validate() throws {
            guard minimumArea >= 0, minimumArea.isFinite else {
                throw ValidationError("--min-area must be a non-negative number of square metres")
            }
        }

        func run() throws {
            let zoneSet = try runZoneTool { () throws(ZoneToolError) in try zoneFile.load(file) }
            let area = try runZoneTool { () throws(ZoneToolError) in try BoundaryFile.read(path: boundary) }
            let coverage = try ZoneCoverage(zoneSet: zoneSet, boundary: area, minimumSquareMetres: minimumArea,
                                            progress: { printError("coverage: \($0)") })
            let text = geojson ? coverage.geoJSON.serialized : coverage.report.joined(separator: "\n")
            try writeToolOutput(text, to: output)
            if !coverage.tilesTheBoundary { throw ExitCode(1) }
        }
    }
}
