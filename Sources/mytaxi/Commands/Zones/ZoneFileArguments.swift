import ArgumentParser
import ServeConfig
import Zones

/// Which properties of a zone file's features hold each zone's id and
/// name: the options of every command that reads one, the planners' tools too.
struct ZonePropertyArguments: ParsableArguments {
    @Option(name: .customLong("id-property"), help: ArgumentHelp(
        "The property holding each zone's id (default: the feature id, then properties.id).",
        valueName: "NAME"))
    var idProperty: String?

    @Option(name: .customLong("name-property"), help: ArgumentHelp(
        "The property holding each zone's name. (default: name)", valueName: "NAME"))
    var nameProperty: String?
}

/// The options every command that loads a zone file as the service does
/// shares, `serve` too; nil where not given, so that `serve` can take them
/// from its config file.
struct ZoneFileArguments: ParsableArguments {
    @OptionGroup var properties: ZonePropertyArguments

    /// The property holding each zone's id, when given.
    var idProperty: String? { properties.idProperty }
    /// The property holding each zone's name, when given.
    var nameProperty: String? { properties.nameProperty }

    @Option(name: .customLong("overlap-tolerance"), help: ArgumentHelp(
        "Overlap between two zones accepted as digitising noise, in square metres. (default: 10)",
        valueName: "M2"))
    var overlapTolerance: Double?

    /// The options given, ``ZoneFileOptions``' defaults for the rest.
    var options: ZoneFileOptions {
        ZoneFileSettings.options(idProperty: idProperty, nameProperty: nameProperty, overlapTolerance: overlapTolerance)
    }

    func validate() throws {
        try ZoneFileSettings.check(overlapTolerance: overlapTolerance)
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
        printError(errorLine(error, file: path))
        throw ExitCode(2)
    }
}

/// The line a command prints when `file` cannot be loaded: the error, led
/// by the file's name unless the error names it already.
func errorLine(_ error: ZoneFileError, file: String) -> String {
    if case .unreadable = error { return "\(error)" }
    return "\(file): \(error)"
}
