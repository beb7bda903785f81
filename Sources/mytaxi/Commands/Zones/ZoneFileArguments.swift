import ArgumentParser
import Zones

/// The options every command that reads a zone file shares.
struct ZoneFileArguments: ParsableArguments {
    @Option(name: .customLong("id-property"), help: ArgumentHelp(
        "The property holding each zone's id (default: the feature id, then properties.id).",
        valueName: "NAME"))
    var idProperty: String?

    @Option(name: .customLong("name-property"), help: ArgumentHelp(
        "The property holding each zone's name.", valueName: "NAME"))
    var nameProperty: String = "name"

    @Option(name: .customLong("overlap-tolerance"), help: ArgumentHelp(
        "Overlap between two zones accepted as digitising noise, in square metres.", valueName: "M2"))
    var overlapTolerance: Double = 10

    var options: ZoneFileOptions {
        ZoneFileOptions(idProperty: idProperty, nameProperty: nameProperty,
                        overlapToleranceSquareMetres: overlapTolerance)
    }

    func validate() throws {
        guard overlapTolerance >= 0, overlapTolerance.isFinite else {
            throw ValidationError("--overlap-tolerance must be a non-negative number of square metres")
        }
    }
}

/// Loads a zone file for a command, printing the problems and exiting
/// (1 for problems, 2 when unreadable) instead of returning when it fails.
func loadZonesOrExit(path: String, arguments: ZoneFileArguments) throws -> LoadedZones {
    do {
        return try ZoneFileLoader.load(path: path, options: arguments.options)
    } catch .invalid(let problems, _) {
        printError("\(path): zone file rejected, \(problems.count) problem(s):")
        for problem in problems { printError(problem.description) }
        throw ExitCode(1)
    } catch {
        printError("\(path): \(error)")
        throw ExitCode(2)
    }
}
