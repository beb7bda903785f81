import Storage

/// The e-mail sent to an address that someone tried to register again: it
/// names the account the address already has, so its owner can log in with
/// it, and tells everyone else that nothing changed.
enum AccountExistsEmail {
    /// The e-mail to `email`, whose account is `account`.
    static func message(to email: String, account: AccountRecord) -> EmailMessage {
        var lines = [
            "Hello,",
            "",
            "someone asked to register a mytaxi account for this address, which already has one: its username is \(account.username).",
            "",
        ]
        if account.emailConfirmed {
            lines.append("Log in with that username. Nothing was changed.")
        } else {
            lines.append(
                "That account is not confirmed yet: confirm it with the token of its confirmation e-mail. "
                    + "An account left unconfirmed is deleted when its token expires; the address can then register again.")
        }
        lines += ["", "If you did not ask, ignore this e-mail."]
        return EmailMessage(to: email, subject: "You already have a mytaxi account", body: lines.joined(separator: "\n"))
    }
}
