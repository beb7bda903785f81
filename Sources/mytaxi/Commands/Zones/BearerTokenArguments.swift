import ArgumentParser
import Foundation

/// Where a command that calls the service's API gets its bearer token:
/// standard input (`--token-stdin`), the `MYTAXI_TOKEN` environment
/// variable, or `--token`, which every user of the machine can read in the
/// process list and is kept only for the scripts that use it.
struct BearerTokenArguments: ParsableArguments {
    /// The environment variable read when neither flag is given.
    static let environmentVariable = "MYTAXI_TOKEN"

    @Flag(name: .customLong("token-stdin"), help: "Read the bearer token from the first line of standard input.")
    var tokenStdin = false

    // Unconditional: a token may begin with "-" (base64url), and must not be read as a flag.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The bearer token on the command line, where the process list shows it to every user of the machine: prefer --token-stdin or the MYTAXI_TOKEN environment variable.",
        valueName: "TOKEN"))
    var token: String?

    /// True when a token was given some way (standard input is read only by ``resolve()``).
    var isGiven: Bool {
        tokenStdin || token != nil || ProcessInfo.processInfo.environment[Self.environmentVariable].map { !$0.isEmpty } == true
    }

    /// The token, from standard input, the environment or `--token` in that order; nil when none was given.
    /// - Throws: `ValidationError` when `--token-stdin` finds no line.
    func resolve() throws -> String? {
        if tokenStdin {
            guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
                throw ValidationError("--token-stdin: no token on standard input")
            }
            return line
        }
        if let variable = ProcessInfo.processInfo.environment[Self.environmentVariable], !variable.isEmpty { return variable }
        if token != nil {
            printError("warning: --token shows the token in the process list; use --token-stdin or \(Self.environmentVariable)")
        }
        return token
    }
}
