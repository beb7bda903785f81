/// How the account service hashes and how long its tokens live.
public struct AccountSettings: Sendable {
    /// bcrypt's cost, log2 of its rounds, within 4...31 (clamped). Each step
    /// doubles the time of a registration and a login: at 10, the default,
    /// one hash or check took 87 ms of one core compiled with -O2 (138 ms at
    /// -O0, as in a debug build) on the 2-core development machine while it
    /// was busy with other builds, 19 ms at 8, 335 ms at 12; tests use 4
    /// (about 1 ms). A login costs one check, a registration one hash.
    public var bcryptCost: UInt8
    /// How long a login's bearer token works (12 h by default).
    public var sessionLifetime: Duration
    /// How long a confirmation e-mail's token works (24 h by default).
    public var confirmationLifetime: Duration
    /// How long a "forgot password" e-mail's token works (1 h by default).
    public var passwordResetLifetime: Duration
    /// When set, "forgot password" e-mails also carry a link: this text
    /// with the token appended (e.g. `https://taxi.example/app#reset=`).
    public var passwordResetLinkPrefix: String?
    /// How long this process trusts a session it recognised before reading
    /// the store again (5 s by default): what another service instance
    /// sharing the store revokes takes effect within this time; what this
    /// one revokes or disables, at once.
    public var sessionRecheckInterval: Duration
    /// When set, confirmation e-mails also carry a link: this text with
    /// the token appended (e.g. `https://taxi.example/confirm?token=`).
    public var confirmationLinkPrefix: String?

    /// Settings with the defaults above unless given.
    public init(
        bcryptCost: UInt8 = 10, sessionLifetime: Duration = .seconds(12 * 3600),
        confirmationLifetime: Duration = .seconds(24 * 3600), sessionRecheckInterval: Duration = .seconds(5),
        confirmationLinkPrefix: String? = nil, passwordResetLifetime: Duration = .seconds(3600),
        passwordResetLinkPrefix: String? = nil
    ) {
        self.passwordResetLifetime = passwordResetLifetime
        self.passwordResetLinkPrefix = passwordResetLinkPrefix
        self.bcryptCost = min(max(bcryptCost, 4), 31)
        self.sessionLifetime = sessionLifetime
        self.confirmationLifetime = confirmationLifetime
        self.sessionRecheckInterval = sessionRecheckInterval
        self.confirmationLinkPrefix = confirmationLinkPrefix
    }
}
