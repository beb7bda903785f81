import ArgumentParser
import ServeConfig
import Zones

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
