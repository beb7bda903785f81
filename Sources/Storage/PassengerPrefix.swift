/// A range of passenger ids by their prefix, for a store's index: every id
/// that starts with a prefix sorts at or after it and before its successor.
public enum PassengerPrefix {
    /// The least text above every text that starts with `prefix`: the
    /// prefix with its last character's code point raised by one (`phone;`
    /// for `phone:`). An empty prefix has none below it: the highest code point.
    public static func successor(of prefix: String) -> String {
        guard let last = prefix.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else {
            return prefix + "\u{10FFFF}"
        }
        return String(String.UnicodeScalarView(prefix.unicodeScalars.dropLast())) + String(next)
    }
}
