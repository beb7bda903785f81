import Foundation
import MetricsTestKit
import NIOCore
import NIOEmbedded
import Testing
@testable import Ingest

/// The UDP handler on an `EmbeddedChannel`, with a sink the test completes:
/// a reply datagram leaves only once the fixes are durable, a failed commit
/// is never answered and its resend is stored, and only registered devices
/// get an answer; step by step, without sockets or sleeps.
@Suite(.timeLimit(.minutes(20))) struct DatagramIngestHandlerTests {
    struct Harness {
        let channel: EmbeddedChannel
        let sink = HeldSink()
        let terminal: SocketAddress
        let metrics = TestMetrics()

        init(devices: String = "device_id,taxi_id\nD1,TX1\n", allowList: IngestAllowList = IngestAllowList()) throws {
            terminal = try SocketAddress(ipAddress: "192.0.2.7", port: 40_001)
            channel = try EmbeddedIngestChannel.make(sink: sink, devices: devices, metrics: metrics) { pipeline, batcher in
                DatagramIngestHandler<LineProtocolDecoder>(pipeline: pipeline, batcher: batcher, allowList: allowList)
            }
        }

        /// A counter of the line protocol's, by its label and reason.
        func count(_ label: String, reason: String) throws -> Int64 {
            try metrics.expectCounter(label, [("protocol", "line"), ("reason", reason)]).totalValue
        }

        /// One datagram from the terminal's address.
        func send(_ text: String) throws {
            try channel.writeInbound(AddressedEnvelope(remoteAddress: terminal, data: channel.allocator.buffer(string: text)))
            channel.embeddedEventLoop.run()
        }

        /// Completes the oldest held submission and lets the loop run.
        func commit(_ result: Result<Void, any Error>) {
            sink.complete(with: result)
            channel.embeddedEventLoop.run()
        }

        /// The reply datagrams sent so far, each with where it went.
        func replies() throws -> [(to: SocketAddress, text: String)] {
            var replies: [(SocketAddress, String)] = []
            while let envelope = try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
                replies.append((envelope.remoteAddress, String(buffer: envelope.data)))
            }
            return replies
        }
    }

    @Test func theReplyLeavesOnlyOnceTheFixIsDurable() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(seq: 1))
        #expect(harness.sink.waiting == 1)
        #expect(try harness.replies().isEmpty, "no reply while the commit is pending")
        harness.commit(.success(()))
        let replies = try harness.replies()
        #expect(replies.map(\.text) == ["ACK,1\n"])
        #expect(replies.first?.to == harness.terminal)
    }

    /// SPEC I6: a failed commit gets no reply, and the terminal's resend of
    /// the same fix is not taken for a duplicate: it is stored, then answered.
    @Test func aFailedCommitIsNotAnsweredAndItsResendIsStored() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(seq: 1))
        harness.commit(.failure(TestSocketError("disk full")))
        #expect(try harness.replies().isEmpty)

        try harness.send(ListenerHarness.line(seq: 1))
        #expect(harness.sink.waiting == 1, "the resend goes to the archive again")
        harness.commit(.success(()))
        #expect(try harness.replies().map(\.text) == ["ACK,1\n"])
    }

    /// A source address can be forged: an unknown device gets no answer and
    /// nothing of it is stored.
    @Test func anUnknownDeviceGetsNoReply() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(device: "STRANGER", seq: 1))
        #expect(harness.sink.waiting == 0)
        #expect(try harness.replies().isEmpty)
    }

    /// A datagram that does not decode is dropped; the next one is served.
    @Test func aBadDatagramIsDroppedAndTheNextServed() throws {
        let harness = try Harness()
        try harness.send("MT1,D1,not-a-sequence,,,\n")
        try harness.send(String(repeating: "\u{0}", count: 64))
        try harness.send(ListenerHarness.line(seq: 2))
        harness.commit(.success(()))
        #expect(try harness.replies().map(\.text) == ["ACK,2\n"])
    }

    /// A datagram from outside `--ingest-allow` is dropped before it is
    /// decoded, and counted; one from inside is served.
    @Test func aDatagramFromOutsideTheAllowListIsDroppedUnreadAndCounted() throws {
        let outside = try Harness(allowList: IngestAllowList(parsing: "127.0.0.1/32,::1"))
        try outside.send(ListenerHarness.line(seq: 1))
        #expect(outside.sink.waiting == 0)
        #expect(try outside.replies().isEmpty)
        #expect(try outside.count("mytaxi_datagrams_dropped_total", reason: "not_allowed") == 1)
        #expect(try outside.metrics.expectCounter("mytaxi_frames_received_total", [("protocol", "line")]).totalValue == 0)

        let inside = try Harness(allowList: IngestAllowList(parsing: "198.51.100.0/24,192.0.2.0/24"))
        try inside.send(ListenerHarness.line(seq: 1))
        inside.commit(.success(()))
        #expect(try inside.replies().map(\.text) == ["ACK,1\n"])
        #expect(try inside.count("mytaxi_datagrams_dropped_total", reason: "not_allowed") == 0)
    }

    /// Each datagram carries its own credentials: a LOGIN line with the
    /// secret lets its fixes through; without it, or with a wrong one,
    /// nothing is stored or answered, and the refusal is counted.
    @Test func eachDatagramCarriesItsOwnLogin() throws {
        let harness = try Harness(devices: "device_id,taxi_id,secret\nD1,TX1,s3cret-D1-000\n")
        try harness.send("MT1,D1,1,LOGIN,s3cret-D1-000\n" + ListenerHarness.line(seq: 2))
        harness.commit(.success(()))
        #expect(try harness.replies().map(\.text) == ["ACK,1\nACK,2\n"])

        try harness.send(ListenerHarness.line(seq: 3))
        try harness.send("MT1,D1,4,LOGIN,s3cret-D1-001\n" + ListenerHarness.line(seq: 5))
        #expect(harness.sink.waiting == 0)
        #expect(try harness.replies().isEmpty, "no answer to a datagram whose device did not prove itself")
        #expect(try harness.count("mytaxi_fixes_rejected_total", reason: "missing_secret") == 1)
        #expect(try harness.count("mytaxi_fixes_rejected_total", reason: "bad_secret") == 1)
    }
}
