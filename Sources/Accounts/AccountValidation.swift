/// The syntax of usernames and e-mail addresses, checked before anything
/// is stored: what a username may look like (it doubles as a driver's taxi
/// id and appears in URLs and logs), and a plausible e-mail address.
public enum AccountValidation {
    /// The most characters of a username.
    public static let maximumUsernameLength = 64
    /// The most characters of an e-mail address (RFC 5321's path limit).
    public static let maximumEmailLength = 254

    /// What is wrong with `username`, empty when nothing: 1 to 64 ASCII
    /// letters, digits, `.`, `_` or `-`, starting with a letter or a digit.
    /// Case is kept but does not distinguish names.
    public static func usernameProblems(_ username: String) -> [String] {
        guard !username.isEmpty else { return ["the username is empty"] }
        var problems: [String] = []
        if username.count > maximumUsernameLength {
            problems.append("the username may have at most \(maximumUsernameLength) characters (it has \(username.count))")
        }
        if !username.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "._-".unicodeScalars.contains($0) }) {
            problems.append("the username may contain only ASCII letters, digits, '.', '_' and '-'")
        }
        if let first = username.unicodeScalars.first, !isAlphanumeric(first) {
            problems.append("the username must start with a letter or a digit")
        }
        return problems
    }

    /// What is wrong with `email`, empty when nothing: `local@domain`, in
    /// ASCII, the local part 1 to 64 characters without spaces, quotes or
    /// brackets, the domain two or more dot-separated labels of letters,
    /// digits and inner hyphens.
    public static func emailProblems(_ email: String) -> [String] {
        guard !email.isEmpty else { return ["the e-mail address is empty"] }
        guard email.count <= maximumEmailLength else {
            return ["the e-mail address may have at most \(maximumEmailLength) characters (it has \(email.count))"]
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let special = Set("()<>[]\\,;:\"@ ".unicodeScalars)
        guard parts.count == 2,
              let local = parts.first, (1...64).contains(local.count),
              local.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 && !special.contains($0) }),
              let domain = parts.last, isDomain(domain)
        else {
            return ["the e-mail address must look like name@example.org"]
        }
        return []
    }

    private static func isDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            (1...63).contains(label.count)
                && label.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" }
                && label.first != "-" && label.last != "-"
        }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
