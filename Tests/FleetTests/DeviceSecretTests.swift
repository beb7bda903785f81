import Fleet
import Testing

/// A device's secret: what the devices file takes, and a comparison that
/// answers only "equal or not".
@Suite(.timeLimit(.minutes(20))) struct DeviceSecretTests {
    @Test(arguments: ["s3cret-Line-1", "12345678", String(repeating: "~", count: 64), "A!#$%&'()*+-./:;<=>?@[]^_`{|}"])
    func printableASCIIOf8To64CharactersIsASecret(text: String) {
        #expect(DeviceSecret(registered: text) != nil, "\(text)")
    }

    @Test(arguments: ["", "1234567", String(repeating: "x", count: 65), "with space", "with,comma", "tab\tinside", "naïve-secret", "line\nbreak"])
    func anythingElseIsRefused(text: String) {
        #expect(DeviceSecret(registered: text) == nil, "\(text)")
    }

    /// Equal only when every byte and the length agree: a prefix, a longer
    /// text starting with the secret, or one differing in the last byte
    /// does not match.
    @Test func onlyTheSameBytesMatch() throws {
        let secret = try #require(DeviceSecret(registered: "s3cret-Line-1"))
        #expect(secret.matches(DeviceSecret(presented: "s3cret-Line-1")))
        #expect(secret == DeviceSecret(presented: "s3cret-Line-1"))
        for guess in ["s3cret-Line-2", "s3cret-Line-", "s3cret-Line-1x", "S3cret-Line-1", "", "s3cret-Line-1\u{0}"] {
            #expect(!secret.matches(DeviceSecret(presented: guess)), "\(guess)")
        }
    }
}
