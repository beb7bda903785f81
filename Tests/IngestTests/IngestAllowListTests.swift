import Foundation
import MetricsTestKit
import NIOCore
import TestSupport
import Testing
@testable import Ingest

/// `--ingest-allow`: CIDR blocks of IPv4 and IPv6 read strictly, with an
/// error naming the bad one; and the listeners over loopback turning away a
/// source outside them before reading a byte, counted by reason.
@Suite(.timeLimit(.minutes(20))) struct IngestAllowListTests {
    static func address(_ text: String) throws -> SocketAddress {
        try SocketAddress(ipAddress: text, port: 5100)
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false),
        ("192.0.2.7", "192.0.2.7", true), ("192.0.2.7", "192.0.2.8", false),
        ("127.0.0.1/32", "127.0.0.1", true), ("0.0.0.0/0", "203.0.113.9", true),
        ("2001:db8::/32", "2001:db8:1::5", true), ("2001:db8::/32", "2001:db9::5", false),
        ("::1", "::1", true), ("::1/128", "127.0.0.1", false), ("127.0.0.1/32", "::1", false),
        // A listener bound to `::` sees its IPv4 clients as IPv4-mapped addresses.
        ("10.0.0.0/8", "::ffff:10.1.2.3", true), ("10.0.0.0/8", "::ffff:11.1.2.3", false),
        ("::ffff:0:0/96", "198.51.100.1", true),
    ])
    func aBlockHoldsItsAddresses(block: String, address: String, contained: Bool) throws {
        #expect(try IPAddressRange(parsing: block).contains(Self.address(address)) == contained)
    }

    @Test(arguments: [
        ("10.0.0.0/33", "the prefix length '/33' must be a whole number 0...32"),
        ("2001:db8::/129", "the prefix length '/129' must be a whole number 0...128"),
        ("10.0.0.0/", "the prefix length '/' must be"),
        ("10.0.0.0/+8", "the prefix length '/+8' must be"),
        ("10.0.0/8", "'10.0.0' is not an IPv4 or IPv6 address"),
        ("taxis.example", "'taxis.example' is not an IPv4 or IPv6 address"),
        ("", "an empty entry"),
        ("10.1.2.3/8", "bits are set beyond the /8 prefix; the block is 10.0.0.0/8"),
        ("2001:db8::1/32", "bits are set beyond the /32 prefix; the block is 2001:db8::/32"),
    ])
    func aBadBlockIsNamed(block: String, problem: String) {
        #expect {
            try IPAddressRange(parsing: block)
        } throws: { error in
            let description = String(describing: error)
            return description.contains("'\(block)' is not a CIDR block") && description.contains(problem)
        }
    }

    /// The list names the first bad block; a trailing comma is an empty one.
    @Test func aListIsReadWholeOrNotAtAll() throws {
        let list = try IngestAllowList(parsing: "10.0.0.0/8, 192.0.2.7 ,2001:db8::/32")
        #expect(list.ranges.count == 3)
        #expect(list.allows(try Self.address("192.0.2.7")))
        #expect(!list.allows(try Self.address("127.0.0.1")))
        #expect(!list.allows(nil), "an unknown source is not in any block")
        #expect(IngestAllowList().allows(try Self.address("203.0.113.9")), "no list: every address")
        #expect(throws: IPAddressRangeError(entry: "", problem: "an empty entry")) {
            try IngestAllowList(parsing: "10.0.0.0/8,")
        }
        #expect(throws: IPAddressRangeError.self) { try IngestAllowList(parsing: "10.0.0.0/8,10.0.0.300") }
    }

    /// Over loopback: a list holding 127.0.0.1 serves the terminal; one
    /// without it closes the TCP connection as it is accepted and drops the
    /// datagram, both unanswered and counted `not_allowed`.
    @Test(arguments: [("127.0.0.1/32", true), ("10.0.0.0/8,::1/128", false)])
    func theListenersServeOnlyTheAllowedSources(list: String, served: Bool) async throws {
        let metrics = TestMetrics()
        let sink = RecordingSink()
        let server = try ListenerHarness(sink: sink, metrics: metrics, allowList: IngestAllowList(parsing: list))
        let tcp = try TestSocket.tcp(port: try await server.lineTCP())
        try? tcp.send(ListenerHarness.line(seq: 1))
        let udp = try TestSocket.udp(port: try await server.lineUDP())
        try udp.send(ListenerHarness.line(seq: 2))
        if served {
            #expect(tcp.receive(until: "\n", timeout: 5) == "ACK,1\n")
            #expect(udp.receive(timeout: 5) == "ACK,2\n")
        } else {
            #expect(tcp.receive(timeout: 5) == "", "closed on accept")
            try await waitUntil("the datagram counted as not allowed") {
                try metrics.expectCounter("mytaxi_datagrams_dropped_total", [("protocol", "line"), ("reason", "not_allowed")]).totalValue
            } satisfies: { $0 == 1 }
            #expect(udp.receive(timeout: 0.2) == nil, "no answer")
            #expect(sink.stored.isEmpty)
            #expect(try metrics.expectCounter("mytaxi_frames_received_total", [("protocol", "line")]).totalValue == 0, "never decoded")
        }
        let refused = try metrics.expectCounter(
            "mytaxi_connections_refused_total", [("protocol", "line"), ("reason", "not_allowed")]).totalValue
        #expect(refused == (served ? 0 : 1))
        try await server.stop()
    }
}
