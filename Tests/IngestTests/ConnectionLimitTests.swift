import FixRecords
import Foundation
import MetricsTestKit
import NIOCore
import NIOEmbedded
import TestSupport
import Testing
@testable import Ingest

/// What one client can hold of the ingest listeners: a place among
/// `maxConnections`, and a socket only while it identifies itself in time
/// and then keeps reporting.
@Suite(.timeLimit(.minutes(20))) struct ConnectionLimitTests {
    /// Deadlines short enough for a test.
    static func limits(maxConnections: Int = 20_000, login: Int64 = 400, idle: Int64 = 800) -> IngestConnectionLimits {
        var limits = IngestConnectionLimits()
        limits.maxConnections = maxConnections
        limits.identificationTimeout = .milliseconds(login)
        limits.idleTimeout = .milliseconds(idle)
        return limits
    }

    @Test func theConnectionBeyondTheLimitIsClosedAndTheOthersKeepWorking() async throws {
        let sink = RecordingSink()
        let server = try ListenerHarness(sink: sink, limits: Self.limits(maxConnections: 3, login: 30_000, idle: 30_000))
        let port = try await server.lineTCP()
        let admitted = try (0..<3).map { _ in try TestSocket.tcp(port: port) }
        // Each admitted terminal reports (and so is surely accepted) before the fourth connects.
        for (index, terminal) in admitted.enumerated() {
            try terminal.send(ListenerHarness.line(seq: index))
            #expect(terminal.receive(until: "\n", timeout: 5) == "ACK,\(index)\n")
        }
        let fourth = try TestSocket.tcp(port: port)
        #expect(fourth.receive(timeout: 5) == "", "closed on accept")
        try admitted[0].send(ListenerHarness.line(seq: 10))
        #expect(admitted[0].receive(until: "\n", timeout: 5) == "ACK,10\n")

        // A place freed is a place for the next.
        admitted[2].closeNow()
        try await waitUntil("a fifth terminal admitted once the server saw the close") {
            let fifth = try TestSocket.tcp(port: port)
            try fifth.send(ListenerHarness.line(seq: 20))
            return fifth.receive(until: "\n", timeout: 5)
        } satisfies: { $0 == "ACK,20\n" }
        try await server.stop()
    }

    /// The listeners hold each connection to the deadlines of their limits:
    /// a client that sends nothing is closed once the identification
    /// deadline passed (how each deadline runs is checked on an embedded
    /// loop below, without waiting for it).
    @Test func theListenersCloseASilentConnection() async throws {
        let server = try ListenerHarness(sink: RecordingSink(), limits: Self.limits(login: 50, idle: 60_000))
        let port = try await server.gt06TCP()
        let client = try TestSocket.tcp(port: port)
        #expect(client.receive(timeout: 30) == "", "closed, not left open")
        try await server.stop()
    }

    /// A client that connects and drips bytes that never make a login is
    /// closed at the identification deadline, however often it sends, and
    /// counted under that phase.
    @Test func aConnectionThatNeverIdentifiesIsClosedAtTheDeadline() throws {
        let terminal = try DeadlineHarness(limits: Self.limits(login: 30_000, idle: 900_000))
        for _ in 1..<30 {
            try terminal.send("x")
            terminal.advance(by: .seconds(1))
        }
        #expect(terminal.closes(after: .seconds(1)), "closed at the 30 s deadline, not before")
        #expect(try terminal.timeouts() == (identification: 1, idle: 0))
    }

    /// An identified terminal may stay silent up to the idle timeout after
    /// each read, which is then what closes it (longer than the
    /// identification deadline).
    @Test func anIdentifiedTerminalIsClosedOnlyAfterTheIdleTimeout() throws {
        let terminal = try DeadlineHarness(limits: Self.limits(login: 30_000, idle: 900_000))
        terminal.advance(by: .seconds(10))
        try terminal.send(ListenerHarness.line(seq: 1))
        terminal.advance(by: .seconds(500))
        #expect(terminal.channel.isActive, "open past the identification deadline")
        try terminal.send(ListenerHarness.line(seq: 2))
        #expect(terminal.closes(after: .seconds(900)), "closed once silent for the idle timeout after its last read, not before")
        #expect(try terminal.timeouts() == (identification: 0, idle: 1))
    }

    /// A line-protocol connection on an `EmbeddedChannel` behind its
    /// deadline handler, as the listeners build it: time moves only when
    /// the test advances the loop.
    struct DeadlineHarness {
        let channel: EmbeddedChannel
        let metrics = TestMetrics()

        init(limits: IngestConnectionLimits) throws {
            var pipelineMetrics: IngestMetrics?
            channel = try EmbeddedIngestChannel.make(sink: HeldSink(), metrics: metrics) { pipeline, batcher in
                pipelineMetrics = pipeline.metrics
                return StreamIngestHandler<LineProtocolDecoder>(pipeline: pipeline, batcher: batcher)
            }
            try channel.pipeline.syncOperations.addHandler(
                TerminalDeadlineHandler(limits: limits, metrics: try #require(pipelineMetrics), wireProtocol: .line),
                position: .first)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        func send(_ text: String) throws {
            try channel.writeInbound(channel.allocator.buffer(string: text))
            channel.embeddedEventLoop.run()
        }

        func advance(by amount: TimeAmount) {
            channel.embeddedEventLoop.advanceTime(by: amount)
        }

        /// Whether the connection, open until just before `amount` from
        /// now, is closed at that instant (advancing the loop to it).
        func closes(after amount: TimeAmount) -> Bool {
            advance(by: amount - .nanoseconds(1))
            let openBefore = channel.isActive
            advance(by: .nanoseconds(1))
            return openBefore && !channel.isActive
        }

        /// Connections closed for each phase's deadline.
        func timeouts() throws -> (identification: Int64, idle: Int64) {
            func count(_ phase: String) throws -> Int64 {
                try metrics.expectCounter("mytaxi_connections_timed_out_total", [("protocol", "line"), ("phase", phase)]).totalValue
            }
            return (try count("identification"), try count("idle"))
        }
    }
}
