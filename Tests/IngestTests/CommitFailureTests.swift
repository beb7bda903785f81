import FixRecords
import Fleet
import Foundation
import Testing
@testable import Ingest

/// SPEC I6 when a commit fails (a full disk, a store that is down): the fix
/// gets no ACK, the terminal resends it, and the resend is stored and only
/// then acknowledged, over every listener. Before, the validator had
/// remembered the fix at its first arrival and acknowledged the resend as a
/// duplicate, never storing it.
@Suite(.timeLimit(.minutes(20))) struct CommitFailureTests {
    @Test func aTCPResendAfterAFailedCommitIsStoredThenAcknowledged() async throws {
        let sink = RecordingSink(failures: 1)
        let server = try ListenerHarness(sink: sink)
        let port = try await server.lineTCP()
        let line = ListenerHarness.line(seq: 70)

        let first = try TestSocket.tcp(port: port)
        try first.send(line)
        #expect(first.receive(timeout: 5) == "", "no ACK for a fix that was not stored; the connection closes")
        #expect(sink.stored.isEmpty)

        let second = try TestSocket.tcp(port: port)
        try second.send(line)
        #expect(second.receive(until: "\n", timeout: 5) == "ACK,70\n")
        #expect(sink.stored.map(\.taxiId) == ["TX1"])

        // Now it is stored: a third copy is a duplicate, acknowledged, not stored again.
        try second.send(line)
        #expect(second.receive(until: "\n", timeout: 5) == "ACK,70\n")
        #expect(sink.stored.count == 1)
        try await server.stop()
    }

    @Test func aUDPResendAfterAFailedCommitIsStoredThenAcknowledged() async throws {
        let sink = RecordingSink(failures: 1)
        let server = try ListenerHarness(sink: sink)
        let port = try await server.lineUDP()
        let line = ListenerHarness.line(seq: 71)
        let terminal = try TestSocket.udp(port: port)

        try terminal.send(line)
        #expect(terminal.receive(timeout: 1) == nil, "no reply for a fix that was not stored")
        #expect(sink.stored.isEmpty)
        try terminal.send(line)
        #expect(terminal.receive(timeout: 5) == "ACK,71\n")
        #expect(sink.stored.count == 1)
        try await server.stop()
    }
}

/// A UDP source address can be forged: the service answers only datagrams
/// from registered devices, so it cannot be used to reflect traffic.
@Suite(.timeLimit(.minutes(20))) struct DatagramReplyTests {
    @Test func anUnknownDeviceOrAPingGetsNoReplyOverUDP() async throws {
        let sink = RecordingSink()
        let server = try ListenerHarness(sink: sink)
        let port = try await server.lineUDP()
        let terminal = try TestSocket.udp(port: port)

        try terminal.send(ListenerHarness.line(device: "D9", seq: 1))
        #expect(terminal.receive(timeout: 0.5) == nil, "an unknown device")
        try terminal.send("MT1,D1,2,PING\n")
        #expect(terminal.receive(timeout: 0.5) == nil, "a keep-alive")
        try terminal.send(ListenerHarness.line(device: "D1", seq: 3))
        #expect(terminal.receive(timeout: 5) == "ACK,3\n", "a registered device is answered")
        #expect(sink.stored.count == 1)
        try await server.stop()
    }
}
