import Accounts
import Foundation
import Testing

/// Base64url without padding, as tokens and paging cursors are written:
/// RFC 4648's test vectors with the padding dropped, and text that is not
/// such an encoding refused.
@Suite(.timeLimit(.minutes(20))) struct Base64URLTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func textRoundTripsWithoutPadding(plain: String, encoded: String) {
        #expect(Base64URL.encode(Data(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Data(plain.utf8))
    }

    /// The two characters base64url changes: 62 is `-`, 63 is `_`.
    @Test func bytesThatStandardBase64WritesWithPlusAndSlashUseDashAndUnderscore() {
        let bytes = Data([0xfb, 0xff, 0xbf])
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64URL.decode("-_-_") == bytes)
        #expect(Base64URL.encode(Data([0xfb, 0xff])) == "-_8", "two bytes: one padding character dropped")
        #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
    }

    @Test(arguments: ["!!", "Zg==", "Zm8=", "+/+/", "Z", "Zm9vY", "Zm 9v"])
    func textThatIsNotBase64URLWithoutPaddingIsRefused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
