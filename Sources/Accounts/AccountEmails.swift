import Foundation
import Storage

/// The e-mails about an account's password and address (SPEC A2): a
/// "forgot password" token, and the notices that tell an account of a
/// change, so that a change its owner did not make is seen.
enum AccountEmails {
    /// The "forgot password" e-mail to `email` for `username`, carrying `token`, which works until `expiresAt`.
    static func passwordReset(to email: String, username: String, token: String, expiresAt: Date, linkPrefix: String?) -> EmailMessage {
        let lines = [
            "Hello \(username),",
            "",
            "someone asked to set a new password for your mytaxi account. This token sets one, once, before \(expiresAt.formatted(.iso8601)):",
            "",
        ] + tokenLines(token, linkPrefix: linkPrefix) + ["If you did not ask, ignore this e-mail: your password stays as it is."]
        return EmailMessage(to: email, subject: "Set a new mytaxi password", body: lines.joined(separator: "\n"))
    }

    /// A token on a line of its own, so that it can be copied, then the
    /// link that carries it when the service has one.
    static func tokenLines(_ token: String, linkPrefix: String?) -> [String] {
        ["    \(token)", ""] + (linkPrefix.map { ["or open this link:", "", "    \($0)\(token)", ""] } ?? [])
    }

    /// The notice to `email` that the password of `username` was changed and its other logins ended.
    static func passwordChanged(to email: String, username: String) -> EmailMessage {
        EmailMessage(
            to: email, subject: "Your mytaxi password was changed",
            body: """
                Hello \(username),

                the password of your mytaxi account was changed, and every other login of the account was ended.
                If you did not change it, tell the service's administrators at once.
                """)
    }

    /// The notice to the old address `email` that `username` asked to move to `newEmail`.
    static func emailChangeRequested(to email: String, username: String, newEmail: String) -> EmailMessage {
        EmailMessage(
            to: email, subject: "Your mytaxi e-mail address is about to change",
            body: """
                Hello \(username),

                your mytaxi account asked to use the e-mail address \(newEmail) from now on; it will once that address is confirmed.
                If you did not ask, change your password and tell the service's administrators at once.
                """)
    }
}
