import Accounts
import ArgumentParser
import FixRecords
import Fleet
import Foundation
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts create`: one account, its password read from standard input.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account; the password is read from standard input.",
            discussion: """
                Bootstraps the first administrator (nobody can log in to create one otherwise), \
                and any other account. The password is the first line of standard input (never \
                an argument, which other users could see in the process list): 8 characters or \
                more, with a digit and a character that is neither a letter nor a digit. An \
                e-mail address given here counts as confirmed. A driver's taxi is --taxi, or by \
                default the taxi whose id is the username; with --devices, it must be in that file.

                Exit status: 0 when the account was created (printed on standard output), 1 when \
                a rule refused it (every problem on standard error, naming its field), 2 when the \
                command is misused (no --password-stdin, no password on standard input, a data \
                directory or devices file that cannot be read); the parser's own refusals (an \
                unknown role or option) exit 64, as with every mytaxi command.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Option(help: "What the account may do.")
        var role: Role

        @Option(help: "The login name: ASCII letters, digits, '.', '_', '-' (a driver's is the taxi id).")
        var username: String

        @Option(help: "The e-mail address (required for a passenger).")
        var email: String?

        @Option(help: "A driver's taxi, when it is not the username.")
        var taxi: String?

        @Option(help: ArgumentHelp("A devices file (device_id,taxi_id lines) that must list the driver's taxi.", valueName: "FILE"))
        var devices: String?

        @Flag(help: "Read the password from standard input (the only way to give it).")
        var passwordStdin = false

        func run() async throws {
            guard passwordStdin else {
                printError("error: give the password on standard input with --password-stdin")
                throw ExitCode(2)
            }
            let password = try Self.passwordFromStandardInput()
            let taxi = role == .driver ? TaxiID(taxi ?? username) : taxi.map { TaxiID($0) }
            if let devices, let taxi, role == .driver {
                let registry: DeviceRegistry
                do {
                    registry = try DeviceRegistry.load(path: devices)
                } catch {
                    printError("error: \(error)")
                    throw ExitCode(2)
                }
                guard registry.taxis.contains(taxi) else {
                    printError("error: taxi: the taxi \(taxi) is not in the devices file \(devices)")
                    throw ExitCode(1)
                }
            }
            let service = try data.openService(create: true)
            let account = try await exitingOnAccountError { () async throws(AccountError) in
                try await service.createAccount(role: role, username: username, password: password, email: email, taxi: taxi)
            }
            print("created account \(account.id): \(account)")
        }

        /// The first line of standard input; exits 2 when it is empty.
        static func passwordFromStandardInput() throws -> String {
            let password = firstLine(of: FileHandle.standardInput.readDataToEndOfFile())
            guard !password.isEmpty else {
                printError("error: no password on standard input")
                throw ExitCode(2)
            }
            return password
        }

        /// The text before the first line break, without a carriage return.
        static func firstLine(of data: Data) -> String {
            let text = String(decoding: data, as: UTF8.self)
            let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return String(line.hasSuffix("\r") ? line.dropLast() : line)
        }
    }
}
