/// The engine's ids as the API writes them, a letter and a number (`R12`
/// for a ride, `V3` for a reservation), read back from a path.
enum EngineIDText {
    /// The number of `text` written with `letter` (or bare); nil for anything else.
    static func number(_ text: String, letter: Character) -> Int? {
        let digits = text.first == letter ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0 else {
            return nil
        }
        return number
    }
}
