import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts reset-password NAME`: a new password for a locked-out account.
    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Reset an account's password: set one from standard input, or e-mail a reset link.",
            discussion: """
                With --password-stdin, the first line of standard input becomes the password (8 \
                characters or more, with a digit and a character that is neither a letter nor a \
                digit) and every session of the account ends: for an account without an e-mail \
                address, or the last administrator locked out. Without it, the account's address \
                gets a "forgot password" e-mail whose token sets a new password, once, within an \
                hour. Either way the account is told by e-mail when it has an address.

                Exit status: 0 when done, 1 when refused (an unknown, deleted or disabled account, \
                no address to send to, a password the rules refuse, a store failure), 2 when the \
                data directory cannot be opened or no password is on standard input.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Argument(help: "The account's username.")
        var username: String

        @Flag(help: "Set the password read from standard input instead of sending a reset e-mail.")
        var passwordStdin = false

        func run() async throws {
            let service = try data.openService(create: false)
            if passwordStdin {
                let password = try Create.passwordFromStandardInput()
                let account = try await exitingOnAccountError { () async throws(AccountError) in
                    try await service.setPassword(username: username, to: password)
                }
                print("set the password of account \(account.id): \(account); its sessions ended")
            } else {
                let account = try await exitingOnAccountError { () async throws(AccountError) in
                    try await service.sendPasswordReset(username: username)
                }
                print("sent a password reset e-mail to \(account.email ?? "") for account \(account.id): \(account)")
            }
        }
    }
}
