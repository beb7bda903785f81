import ArgumentParser
import GeoKit
import JSONKit
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones grid --boundary FILE --cell METRES [-o OUT]`: square zones over a service area.
    struct Grid: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a zone set of square cells over a service area, clipped to its boundary.",
            discussion: """
                Cells are squares of --cell metres on a local projection, counted from the south-west \
                corner of the boundary's bounding box: the cell in row 3 from the south and column 7 \
                from the west is `r3c7`, named "Row 3, column 7", so the same boundary and cell size \
                always give the same ids. Cells outside the boundary are left out. Writes a zone file \
                (to standard output without -o); progress by row on standard error.
                """)

        @Option(help: ArgumentHelp("The service area's boundary (GeoJSON).", valueName: "FILE"))
        var boundary: String

        @Option(help: ArgumentHelp("The side of a cell, in metres.", valueName: "METRES"))
        var cell: Double

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the zone file.", valueName: "FILE"))
        var output: String?

        func validate() throws {
            guard cell > 0, cell.isFinite else { throw ValidationError("--cell must be a positive number of metres") }
        }

        func run() throws {
            let area = try runZoneTool { () throws(ZoneToolError) in try BoundaryFile.read(path: boundary) }
            var reported = 0
            let zones = try ZoneGrid.cells(boundary: area, cellMetres: cell) { done, total in
                let tenth = done * 10 / total
                if tenth > reported || done == total {
                    reported = tenth
                    printError("grid: \(done) of \(total) rows")
                }
            }
            try writeToolOutput(GeneratedZone.zoneFile(zones).serialized, to: output)
            printError("grid: \(zones.count) cells")
        }
    }
}
