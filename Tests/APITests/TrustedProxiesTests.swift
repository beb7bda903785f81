import NIOCore
import Testing
@testable import API

/// Behind a reverse proxy every request comes from the proxy: its
/// `X-Forwarded-For` names the client, and only a trusted proxy's is believed.
@Suite(.timeLimit(.minutes(20))) struct TrustedProxiesTests {
    let proxy = try! SocketAddress(ipAddress: "10.0.0.5", port: 41_000)
    let client = try! SocketAddress(ipAddress: "198.51.100.7", port: 52_000)

    @Test func withoutATrustedProxyTheHeaderIsIgnored() {
        let none = TrustedProxies()
        #expect(none.clientAddress(forwardedFor: ["203.0.113.9"], peer: proxy) == "10.0.0.5")
        #expect(none.clientAddress(forwardedFor: [], peer: nil) == "unknown")
    }

    @Test func aTrustedProxyNamesTheClient() throws {
        let trusted = try TrustedProxies(parsing: "10.0.0.0/24,2001:db8::/32")
        #expect(trusted.clientAddress(forwardedFor: ["203.0.113.9"], peer: proxy) == "203.0.113.9")
        #expect(trusted.clientAddress(forwardedFor: ["1.2.3.4, 203.0.113.9, 10.0.0.6"], peer: proxy) == "203.0.113.9",
                "the right-most hop that is not a proxy: what a client put first is its own claim")
        #expect(trusted.clientAddress(forwardedFor: ["1.2.3.4", "203.0.113.9"], peer: proxy) == "203.0.113.9")
        #expect(trusted.clientAddress(forwardedFor: [], peer: proxy) == "10.0.0.5")
        #expect(trusted.clientAddress(forwardedFor: ["not-an-address"], peer: proxy) == "10.0.0.5")
    }

    @Test func aClientThatIsNoProxyCannotChooseItsAddress() throws {
        let trusted = try TrustedProxies(parsing: "10.0.0.0/24")
        #expect(trusted.clientAddress(forwardedFor: ["10.0.0.99"], peer: client) == "198.51.100.7")
    }

    @Test func aBadBlockIsNamed() {
        #expect(throws: (any Error).self) { try TrustedProxies(parsing: "10.0.0.0/33") }
    }
}
