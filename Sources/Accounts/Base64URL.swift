import Foundation

/// Base64url without padding (RFC 4648 §5): the alphabet with `-` and `_`
/// in place of `+` and `/`, and no trailing `=`, so the text goes into a
/// URL, a header or an e-mail unescaped. Bearer and e-mail tokens are
/// written so, and the API's opaque paging cursors too.
public enum Base64URL {
    /// `data` as base64url, without padding.
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes `text` encodes, as ``encode(_:)`` writes it; nil when it
    /// is not base64url without padding (another character, padding, or a
    /// length no encoding has).
    public static func decode(_ text: String) -> Data? {
        guard text.utf8.allSatisfy(isInAlphabet) else { return nil }
        let base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return Data(base64Encoded: base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4))
    }

    /// True when `text` has the form ``encode(_:)`` writes: at least one
    /// character, every one of the alphabet, and a count some encoding has
    /// (never one more than a multiple of four). Paging cursors are checked
    /// so before being read, to tell a malformed one from a foreign one.
    public static func isWellFormed(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count % 4 != 1 && text.utf8.allSatisfy(isInAlphabet)
    }

    private static func isInAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
