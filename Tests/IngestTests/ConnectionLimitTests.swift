import Foundation
import NIOCore
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

    /// A client that connects and drips bytes that never make a login is
    /// closed at the identification deadline, however often it sends.
    @Test func aConnectionThatNeverIdentifiesIsClosedAtTheDeadline() async throws {
        let server = try ListenerHarness(sink: RecordingSink(), limits: Self.limits(login: 400, idle: 60_000))
        let port = try await server.gt06TCP()
        let client = try TestSocket.tcp(port: port)
        let opened = Date()
        var closed = false
        while Date().timeIntervalSince(opened) < 5, !closed {
            try? client.send("x")
            closed = client.receive(timeout: 0.1) == ""
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(opened) < 2, "closed near the 0.4 s deadline")
        try await server.stop()
    }

    /// An identified terminal may stay silent up to the idle timeout, which
    /// is then what closes it (longer than the identification deadline).
    @Test func anIdentifiedTerminalIsClosedOnlyAfterTheIdleTimeout() async throws {
        let server = try ListenerHarness(sink: RecordingSink(), limits: Self.limits(login: 300, idle: 1_500))
        let port = try await server.lineTCP()
        let terminal = try TestSocket.tcp(port: port)
        try terminal.send(ListenerHarness.line(seq: 1))
        #expect(terminal.receive(until: "\n", timeout: 5) == "ACK,1\n")
        let identified = Date()
        #expect(terminal.receive(timeout: 0.8) == nil, "still open past the identification deadline")
        #expect(terminal.receive(timeout: 5) == "", "closed once silent for the idle timeout")
        #expect(Date().timeIntervalSince(identified) >= 1.4)
        try await server.stop()
    }
}
