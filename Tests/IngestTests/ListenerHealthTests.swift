import NIOCore
import Testing
@testable import Ingest

/// What the ingest listeners tell `/healthz`: down until started and when a
/// bound listener was lost; up when every TCP and UDP listener is off on
/// purpose (a service fed only through OsmAnd).
@Suite(.timeLimit(.minutes(20))) struct ListenerHealthTests {
    @Test func noListenerTurnedOnIsHealthyOnceStarted() async throws {
        let server = try ListenerHarness(sink: RecordingSink())
        #expect(!server.listeners.allListening, "not before the start is over")
        server.listeners.markStarted()
        #expect(server.listeners.allListening)
        try await server.stop()
    }

    @Test func aBoundListenerThatWasLostIsDown() async throws {
        let server = try ListenerHarness(sink: RecordingSink())
        _ = try await server.lineTCP()
        _ = try await server.lineUDP()
        server.listeners.markStarted()
        #expect(server.listeners.allListening)
        // Stopping the event loops closes the listeners' channels under them
        // (and leaves nothing else to stop).
        try await server.group.shutdownGracefully()
        #expect(!server.listeners.allListening)
    }
}
