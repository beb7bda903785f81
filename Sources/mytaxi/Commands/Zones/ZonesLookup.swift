import ArgumentParser
import GeoKit
import ServeConfig
import Zones

extension Mytaxi.Zones {
    /// `mytaxi zones lookup --zones FILE`: the zone of each point read on standard input.
    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the zone of each `lon,lat` line read on standard input.",
            discussion: """
                Writes one line per input line: the zone id, or an empty line when the point is \
                outside every zone (or the line is not `lon,lat`; such lines are also reported on \
                standard error with their line number). Streams: handles millions of lines.
                """)

        @Option(help: ArgumentHelp("The zone file (GeoJSON FeatureCollection).", valueName: "FILE"))
        var zones: String

        @OptionGroup var zoneFile: ZoneFileArguments

        func run() throws {
            let loaded = try loadZonesOrExit(path: zones, arguments: zoneFile)
            let index = try ZoneIndex(zoneSet: loaded.zoneSet)
            let ids = loaded.zoneSet.zones.map { Array($0.id.text.utf8) }
            var reader = LineReader()
            var output = OutputBuffer()
            var lineNumber = 0
            var badLines = 0
            reader.forEachLine { line in
                lineNumber += 1
                guard let values = parseNumbers(line, count: 2), values.count == 2 else {
                    if !line.isEmpty {
                        badLines += 1
                        if badLines <= 10 { printError("line \(lineNumber): expected `lon,lat`") }
                    }
                    output.append(EmptyCollection<UInt8>())
                    return
                }
                if let position = index.zonePosition(at: Coordinate(longitude: values[0], latitude: values[1])) {
                    output.append(ids[position])
                } else {
                    output.append(EmptyCollection<UInt8>())
                }
            }
            output.flush()
            if badLines > 10 { printError("\(badLines) lines in all were not `lon,lat`") }
        }
    }
}
