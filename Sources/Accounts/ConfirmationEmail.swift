import Foundation
import Storage

/// The e-mail that asks a new passenger to confirm the address (SPEC A2),
/// with the token on a line of its own so that it can be copied, and a
/// link when the service has one.
enum ConfirmationEmail {
    /// The e-mail to `email` for `username`, carrying `token`, which works until `expiresAt`.
    static func message(to email: String, username: String, token: String, expiresAt: Date, linkPrefix: String?) -> EmailMessage {
        let until = expiresAt.formatted(.iso8601)
        let lines = [
            "Hello \(username),",
            "",
            "please confirm your e-mail address for mytaxi with this token before \(until):",
            "",
        ] + AccountEmails.tokenLines(token, linkPrefix: linkPrefix)
            + ["If you did not register, ignore this e-mail: nothing happens without the token."]
        return EmailMessage(to: email, subject: "Confirm your mytaxi e-mail address", body: lines.joined(separator: "\n"))
    }
}
