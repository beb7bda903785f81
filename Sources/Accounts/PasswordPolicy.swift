/// What a password must be (SPEC A2): 8 characters or more, with at least
/// one digit and one character that is neither a letter nor a digit.
///
/// Two limits come from bcrypt itself: it reads only the first 72 bytes
/// (a longer password would be checked on its prefix alone, so it is
/// refused rather than silently shortened), and it stops at a NUL byte.
public struct PasswordPolicy: Sendable {
    /// The fewest characters (grapheme clusters, as a person counts them).
    public let minimumLength: Int
    /// The most UTF-8 bytes: bcrypt's limit.
    public static let maximumBytes = 72

    /// The policy of SPEC A2, or a longer minimum.
    public init(minimumLength: Int = 8) {
        self.minimumLength = minimumLength
    }

    /// Every rule `password` breaks, each named ("the password needs at
    /// least one digit"); empty when it is acceptable.
    public func problems(in password: String) -> [String] {
        var problems: [String] = []
        if password.count < minimumLength {
            problems.append("the password needs at least \(minimumLength) characters (it has \(password.count))")
        }
        if !password.contains(where: \.isNumber) {
            problems.append("the password needs at least one digit")
        }
        if !password.contains(where: { !$0.isLetter && !$0.isNumber }) {
            problems.append("the password needs at least one character that is neither a letter nor a digit, such as ! or #")
        }
        if password.utf8.count > Self.maximumBytes {
            problems.append("the password may have at most \(Self.maximumBytes) bytes (bcrypt reads no further)")
        }
        if password.utf8.contains(0) {
            problems.append("the password may not contain the NUL character")
        }
        return problems
    }
}
