import Foundation
import Synchronization
import Testing
@testable import Ingest

/// While the archive is behind, or a terminal does not read its ACKs, the
/// listeners stop taking more (TCP stops reading, UDP drops datagrams)
/// instead of queueing in memory without bound.
@Suite(.serialized, .timeLimit(.minutes(20))) struct BackpressureTests {
    /// Lines of `device` with sequence numbers from `first`, as one buffer.
    static func lines(device: String, from first: Int, count: Int) -> [UInt8] {
        Array((first..<first + count).map { ListenerHarness.line(device: device, seq: $0) }.joined().utf8)
    }

    /// Eight terminals flood a server whose archive stores 10,000 fixes/s:
    /// the fixes queued for the archive stay near the limit, where before
    /// they grew with the flood. Above the limit by at most what one loop
    /// tick reads: a connection's read loop takes up to 4 reads of at most
    /// 64 KB before it looks again, as many lines as the shortest fits.
    @Test func aFloodAgainstASlowArchiveQueuesAtMostTheLimit() async throws {
        let limit = 2_000
        let deepest = Mutex(0)
        let harnessBox = Mutex<IngestPipeline?>(nil)
        let sink = RecordingSink(delay: 0.001, delayPerFix: 0.000_1) {
            let queued = harnessBox.withLock { $0?.queuedFixCount } ?? 0
            deepest.withLock { $0 = max($0, queued) }
        }
        let server = try ListenerHarness(sink: sink, maxQueuedFixes: limit)
        harnessBox.withLock { $0 = server.pipeline }
        let port = try await server.lineTCP()
        let terminals = try (0..<8).map { _ in try TestSocket.tcp(port: port) }
        var sentLines = 0
        let deadline = Date().addingTimeInterval(4)
        while Date() < deadline {
            for (index, terminal) in terminals.enumerated() {
                let batch = Self.lines(device: index % 2 == 0 ? "D1" : "D2", from: sentLines, count: 200)
                if terminal.sendWithoutBlocking(batch) > 0 { sentLines += 200 }
                terminal.drain()
            }
        }
        let queuedAtMost = deepest.withLock { $0 }
        #expect(queuedAtMost > 0)
        let linesPerRead = 65_536 / ListenerHarness.line(device: "D1", seq: 0).utf8.count
        let bound = limit + 8 * 4 * linesPerRead
        #expect(queuedAtMost <= bound, "queued \(queuedAtMost) fixes with a limit of \(limit)")
        #expect(sink.stored.count + queuedAtMost < sentLines, "the terminals sent more than was read: they were held back")
        try await server.stop()
    }

    /// The same over UDP: datagrams beyond the limit are dropped (the
    /// terminals, without ACKs, resend them), and the queue stays bounded.
    @Test func aUDPFloodAgainstASlowArchiveDropsDatagrams() async throws {
        let limit = 500
        let deepest = Mutex(0)
        let harnessBox = Mutex<IngestPipeline?>(nil)
        let sink = RecordingSink(delay: 0.02) {
            let queued = harnessBox.withLock { $0?.queuedFixCount } ?? 0
            deepest.withLock { $0 = max($0, queued) }
        }
        let server = try ListenerHarness(sink: sink, maxQueuedFixes: limit)
        harnessBox.withLock { $0 = server.pipeline }
        let port = try await server.lineUDP()
        let terminal = try TestSocket.udp(port: port)
        var sent = 0
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            let batch = Self.lines(device: "D1", from: sent, count: 10)
            if terminal.sendWithoutBlocking(batch) > 0 { sent += 10 }
            terminal.drain()
        }
        try await Task.sleep(for: .milliseconds(500))
        let queuedAtMost = deepest.withLock { $0 }
        #expect(queuedAtMost <= limit + 10, "queued \(queuedAtMost) fixes with a limit of \(limit)")
        #expect(sink.stored.count < sent, "some datagrams were dropped while the archive was behind")
        try await server.stop()
    }

    /// A terminal that sends and never reads its ACKs: once the replies it
    /// leaves unread fill the buffers, the server stops reading from it, so
    /// its sends stall instead of the server queueing ACKs without bound.
    @Test func aClientThatNeverReadsIsStopped() async throws {
        let sink = RecordingSink()
        let server = try ListenerHarness(sink: sink)
        let port = try await server.lineTCP()
        let terminal = try TestSocket.tcp(port: port, receiveBuffer: 4_096)
        var sentLines = 0
        var stalledSince: Date?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // Long sequence numbers make long ACKs, so that the buffers fill sooner.
            let batch = Self.lines(device: "D1", from: 100_000_000_000_000 + sentLines, count: 100)
            if terminal.sendWithoutBlocking(batch) > 0 {
                sentLines += 100
                stalledSince = nil
            } else if let since = stalledSince {
                if Date().timeIntervalSince(since) > 2 { break }
            } else {
                stalledSince = Date()
            }
        }
        #expect(stalledSince != nil, "the server kept reading from a terminal that reads no ACK (\(sentLines) lines sent)")
        let storedWhenStalled = sink.stored.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(sink.stored.count == storedWhenStalled, "nothing more is read")
        try await server.stop()
    }
}
