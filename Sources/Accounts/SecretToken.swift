import Crypto
import Foundation

/// A random token and the hash it is stored by: 256 bits from the system's
/// secure generator, written in base64url without padding (43 characters,
/// safe in headers, URLs and e-mails). The store keeps only the SHA-256 of
/// the text, so a copy of the database lets nobody log in.
struct SecretToken {
    /// The token as its holder sends it.
    let text: String

    /// A new random token.
    init() {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        text = Base64URL.encode(bytes)
    }

    /// The key this token is stored by.
    var hash: Data { Self.hash(of: text) }

    /// The key a token's text is stored by: SHA-256 of its UTF-8 bytes.
    static func hash(of text: String) -> Data {
        Data(SHA256.hash(data: Data(text.utf8)))
    }
}
