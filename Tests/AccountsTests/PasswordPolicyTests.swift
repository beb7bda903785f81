import Accounts
import Testing

/// SPEC A2: 8 characters or more, a digit, a character that is neither a
/// letter nor a digit; and bcrypt's own limits.
@Suite(.timeLimit(.minutes(20))) struct PasswordPolicyTests {
    let policy = PasswordPolicy()

    @Test(arguments: ["analytical-1", "ab!defg1", "pässwört 9", "12345678#", "🚕🚕🚕🚕🚕🚕🚕7"])
    func anAcceptablePasswordHasNoProblems(password: String) {
        #expect(policy.problems(in: password) == [])
    }

    @Test(arguments: [
        ("short-1", ["the password needs at least 8 characters (it has 7)"]),
        ("password!", ["the password needs at least one digit"]),
        ("password1", ["the password needs at least one character that is neither a letter nor a digit, such as ! or #"]),
        ("abc", [
            "the password needs at least 8 characters (it has 3)", "the password needs at least one digit",
            "the password needs at least one character that is neither a letter nor a digit, such as ! or #",
        ]),
    ])
    func everyRuleBrokenIsNamed(password: String, problems: [String]) {
        #expect(policy.problems(in: password) == problems)
    }

    /// bcrypt reads 72 bytes: a longer password is refused rather than checked on its prefix alone.
    @Test func aPasswordLongerThanBcryptReadsIsRefused() {
        #expect(policy.problems(in: String(repeating: "a", count: 71) + "1!") == [
            "the password may have at most 72 bytes (bcrypt reads no further)",
        ])
        #expect(policy.problems(in: String(repeating: "a", count: 70) + "1!") == [])
    }

    @Test func aPasswordWithNULIsRefused() {
        #expect(policy.problems(in: "analytical-1\u{0}more") == ["the password may not contain the NUL character"])
    }

    @Test func theMinimumLengthCanBeRaised() {
        #expect(PasswordPolicy(minimumLength: 12).problems(in: "analytical-1") == [])
        #expect(PasswordPolicy(minimumLength: 13).problems(in: "analytical-1") == [
            "the password needs at least 13 characters (it has 12)",
        ])
    }
}
