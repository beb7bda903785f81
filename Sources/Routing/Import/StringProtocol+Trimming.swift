extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        let trimmed = drop { $0 == " " || $0 == "\t" }
        return String(trimmed.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
