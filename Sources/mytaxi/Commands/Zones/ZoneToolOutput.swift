import ArgumentParser
import Foundation
import ZoneTools

/// Writes a tool's result to the file `path`, or to standard output when nil.
///
/// A file that cannot be written is a misuse of the command (exit 2).
func writeToolOutput(_ text: String, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
        return
    }
    do {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path))
    } catch {
        printError("cannot write \(path): \((error as NSError).localizedDescription)")
        throw ExitCode(2)
    }
}

/// Runs a zone tool's work, printing a ``ZoneToolError`` and exiting with its
/// status: 2 when the input cannot be read, 1 when its data has problems.
func runZoneTool<Value>(_ work: () throws(ZoneToolError) -> Value) throws -> Value {
    do {
        return try work()
    } catch {
        printError(error.description)
        throw ExitCode(error.isUnreadable ? 2 : 1)
    }
}
