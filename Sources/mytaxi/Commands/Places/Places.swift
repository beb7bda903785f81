import ArgumentParser
import Foundation
import GeoKit
import Places
import Routing

extension Mytaxi {
    /// `mytaxi places`: search the addresses, streets and named places of a graph file.
    struct PlacesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "places",
            abstract: "Find an address, street or named place in a graph file, or the address of a point.",
            discussion: """
                `mytaxi graph build` stores the map's addresses (house numbers on streets), named \
                streets and named places (stations, hospitals, hotels, shops, landmarks) in the graph \
                file, so that the city's one file answers both "how long to drive" and "where is \
                that". Search ignores case, punctuation and diacritics, knows the usual abbreviations \
                (St, Ave, E, 5th/Fifth, Blvd, ...), tolerates a typo or two and completes the word \
                being typed. docs/places.md says how it ranks and how to add a language's abbreviations.
                """,
            subcommands: [Search.self, Reverse.self, Check.self]
        )
    }
}

/// The graph file option both `places` commands share, and its loading.
struct PlaceFileArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The graph file (`mytaxi graph build`) holding the places.", valueName: "CITY.graph"))
    var graph: String

    /// The graph file's place index; exits 2 naming the problem when the
    /// file cannot be read or holds no places.
    func loadIndex() throws -> PlaceIndex {
        do {
            let contents = try GraphFile.read(from: URL(fileURLWithPath: graph))
            guard let index = try PlaceIndex(graphSections: contents.extraSections) else {
                printError("\(graph) holds no places: build it from an OpenStreetMap extract with `mytaxi graph build MAP -o \(graph)` "
                           + "(a synthetic city has no addresses)")
                throw ExitCode(2)
            }
            return index
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("\(graph): \(error)")
            throw ExitCode(2)
        }
    }
}

/// Reads `lon,lat` for a command's option, as `mytaxi route` reads its ends.
func parseCoordinate(_ text: String, name: String) throws -> Coordinate {
    guard let coordinate = Mytaxi.RouteCommand.coordinate(text) else {
        throw ValidationError("\(name) must be LON,LAT in degrees, e.g. -73.9857,40.7484; got '\(text)'")
    }
    return coordinate
}
