import Storage

/// What a passenger's registration did
/// (``AccountService/registerPassenger(username:email:password:)``).
///
/// Over HTTP both outcomes get the same answer: whether an address already
/// has an account is told only to that address, by e-mail, so that
/// registering cannot be used to learn who is a customer.
public enum PassengerRegistration: Sendable, Equatable {
    /// A new account, not yet confirmed; its confirmation e-mail is in the outbox.
    case registered(AccountRecord)
    /// The address already belongs to an account: nothing was stored, and an
    /// e-mail saying so, with that account's username, went to the address.
    case addressAlreadyRegistered

    /// The new account, nil when the address already had one.
    public var account: AccountRecord? {
        if case .registered(let account) = self { return account }
        return nil
    }
}
