import Accounts
import Testing

/// What usernames and e-mail addresses may look like.
@Suite(.timeLimit(.minutes(20))) struct AccountValidationTests {
    @Test(arguments: ["ada", "Ada.Lovelace", "T-0017", "7", "driver_12", String(repeating: "a", count: 64)])
    func aValidUsernameHasNoProblems(username: String) {
        #expect(AccountValidation.usernameProblems(username) == [])
    }

    @Test(arguments: [
        ("", ["the username is empty"]),
        ("ada lovelace", ["the username may contain only ASCII letters, digits, '.', '_' and '-'"]),
        ("adä", ["the username may contain only ASCII letters, digits, '.', '_' and '-'"]),
        ("-ada", ["the username must start with a letter or a digit"]),
        (String(repeating: "a", count: 65), ["the username may have at most 64 characters (it has 65)"]),
        ("ada/../x", ["the username may contain only ASCII letters, digits, '.', '_' and '-'"]),
    ])
    func anInvalidUsernameIsRefusedWithItsProblem(username: String, problems: [String]) {
        #expect(AccountValidation.usernameProblems(username) == problems)
    }

    @Test(arguments: ["ada@example.org", "Ada.Lovelace+taxi@mail.example.co.uk", "x@a-b.io", "o'hara@example.org"])
    func aValidEmailHasNoProblems(email: String) {
        #expect(AccountValidation.emailProblems(email) == [])
    }

    @Test(arguments: [
        "ada", "ada@", "@example.org", "ada@example", "ada@@example.org", "ada @example.org", "ada@-example.org",
        "ada@example..org", "adä@example.org", "ada@exa_mple.org", "<ada>@example.org",
    ])
    func anInvalidEmailIsRefused(email: String) {
        #expect(AccountValidation.emailProblems(email) == ["the e-mail address must look like name@example.org"])
    }

    @Test func emptyAndOverlongEmailsSaySo() {
        #expect(AccountValidation.emailProblems("") == ["the e-mail address is empty"])
        let long = String(repeating: "a", count: 60) + "@" + String(repeating: "b", count: 190) + ".org"
        #expect(AccountValidation.emailProblems(long) == ["the e-mail address may have at most 254 characters (it has 255)"])
    }
}
