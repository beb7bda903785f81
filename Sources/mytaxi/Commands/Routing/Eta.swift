import ArgumentParser
import FixRecords
import Foundation
import GeoKit
import Ingest
import Routing

extension Mytaxi {
    /// `mytaxi eta --graph CITY.graph`: travel time and distance of each trip read on standard input.
    struct Eta: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print `duration_s,distance_m` for each `from_lon,from_lat,to_lon,to_lat[,depart]` line on standard input.",
            discussion: """
                One output line per input line, in order: the fastest drive (or walk, with a foot \
                graph) at the speeds of the departure hour (ISO 8601, default now), or an empty line \
                when either end is too far from a road or no path exists. Each end may start on any \
                road within --snap-radius of it, whichever is fastest. Lines that are not trips \
                are reported on standard error with their number and also give an empty line. \
                Streams: handles millions of lines.
                """)

        @OptionGroup var router: RouterArguments

        func run() throws {
            let router = try router.loadRouter()
            var reader = LineReader()
            var output = OutputBuffer()
            var lineNumber = 0
            var badLines = 0
            let now = Date()
            reader.forEachLine { line in
                lineNumber += 1
                guard !line.isEmpty else {
                    output.append(EmptyCollection<UInt8>())
                    return
                }
                guard let trip = Trip(line: line, defaultDeparture: now) else {
                    badLines += 1
                    if badLines <= 10 {
                        printError("line \(lineNumber): expected `from_lon,from_lat,to_lon,to_lat[,depart_iso8601]`")
                    }
                    output.append(EmptyCollection<UInt8>())
                    return
                }
                guard let route = try? router.route(from: trip.from, to: trip.to, depart: trip.depart) else {
                    output.append(EmptyCollection<UInt8>())
                    return
                }
                output.append(Array(format(route.durationSeconds, route.distanceMetres).utf8))
            }
            output.flush()
            if badLines > 10 { printError("\(badLines) lines in all were not trips") }
        }

        func format(_ seconds: Double, _ metres: Double) -> String {
            String(format: "%.1f,%.1f", seconds, metres)
        }
    }
}

/// One `from_lon,from_lat,to_lon,to_lat[,depart]` input line.
struct Trip {
    var from: Coordinate
    var to: Coordinate
    var depart: Date

    init?(line: ArraySlice<UInt8>, defaultDeparture: Date) {
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 4 || fields.count == 5 else { return nil }
        let numbers = fields.prefix(4).compactMap { Double(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { return nil }
        from = Coordinate(longitude: numbers[0], latitude: numbers[1])
        to = Coordinate(longitude: numbers[2], latitude: numbers[3])
        guard from.isInRange, to.isInRange else { return nil }
        if fields.count == 5 {
            guard let date = FixTime.date(iso8601: String(decoding: fields[4], as: UTF8.self).trimmingCharacters(in: .whitespaces)) else {
                return nil
            }
            depart = date
        } else {
            depart = defaultDeparture
        }
    }
}
