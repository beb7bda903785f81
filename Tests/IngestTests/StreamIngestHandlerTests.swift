import Foundation
import NIOCore
import NIOEmbedded
import Testing
@testable import Ingest

/// The TCP handler on an `EmbeddedChannel`, with a sink the test completes:
/// the ACK-after-commit rule checked step by step, without sockets or sleeps.
@Suite(.timeLimit(.minutes(20))) struct StreamIngestHandlerTests {
    struct Harness {
        let channel: EmbeddedChannel
        let sink = HeldSink()

        init() throws {
            channel = try EmbeddedIngestChannel.make(sink: sink) { pipeline, batcher in
                StreamIngestHandler<LineProtocolDecoder>(pipeline: pipeline, batcher: batcher)
            }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        func send(_ text: String) throws {
            try channel.writeInbound(channel.allocator.buffer(string: text))
            channel.embeddedEventLoop.run()
        }

        /// What the handler wrote to the terminal so far.
        func written() throws -> String {
            var text = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
            return text
        }
    }

    @Test func theACKLeavesOnlyOnceTheFixIsDurable() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(seq: 1))
        #expect(harness.sink.waiting == 1)
        #expect(try harness.written() == "", "no ACK while the commit is pending")
        #expect(harness.sink.complete(with: .success(())).count == 1)
        harness.channel.embeddedEventLoop.run()
        #expect(try harness.written() == "ACK,1\n")
    }

    @Test func aFailedCommitIsNeverAcknowledgedAndClosesTheConnection() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(seq: 1) + ListenerHarness.line(seq: 2))
        harness.sink.complete(with: .failure(TestSocketError("disk full")))
        harness.channel.embeddedEventLoop.run()
        #expect(try harness.written() == "")
        #expect(!harness.channel.isActive, "the terminal reconnects and resends")
    }

    /// ACKs leave in the order the lines came, even when a later read's
    /// commit completes first.
    @Test func acknowledgementsKeepTheOrderOfTheLines() throws {
        let harness = try Harness()
        try harness.send(ListenerHarness.line(seq: 1))
        try harness.send(ListenerHarness.line(seq: 2))
        #expect(harness.sink.waiting == 2)
        harness.sink.complete(with: .success(()), newest: true)
        harness.channel.embeddedEventLoop.run()
        #expect(try harness.written() == "", "ACK 2 waits for ACK 1")
        harness.sink.complete(with: .success(()))
        harness.channel.embeddedEventLoop.run()
        #expect(try harness.written() == "ACK,1\nACK,2\n")
    }
}
