import NIOCore
import NIOEmbedded
import Testing
@testable import API

/// The first request head's deadline on an `EmbeddedChannel`: counted from
/// the connection's opening, not put off by a drip, lifted once the head
/// is whole, and a cut connection marked so that it is not logged as an
/// error; time moves only when the test advances the loop.
@Suite(.timeLimit(.minutes(20))) struct FirstRequestHeadHandlerTests {
    let channel = EmbeddedChannel()
    let cut = ConnectionCut()

    init() throws {
        try channel.pipeline.syncOperations.addHandler(FirstRequestHeadHandler(timeout: .seconds(10), cut: cut))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    func send(_ text: String) throws {
        try channel.writeInbound(channel.allocator.buffer(string: text))
    }

    @Test func aSilentConnectionIsClosedAtTheDeadline() {
        channel.embeddedEventLoop.advanceTime(by: .seconds(10) - .nanoseconds(1))
        #expect(channel.isActive && !cut.isMarked)
        channel.embeddedEventLoop.advanceTime(by: .nanoseconds(1))
        #expect(!channel.isActive, "closed at the 10 s deadline")
        #expect(cut.isMarked, "the service cut it: no error is logged for it")
    }

    @Test func aHeadDrippedByteByByteIsClosedAtTheDeadline() throws {
        for character in "GET /v1/p" {
            try send(String(character))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive, "each byte in time, the head not")
        #expect(cut.isMarked)
    }

    @Test func aWholeHeadInTimeLiftsTheDeadline() throws {
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: ChannelPipelineError.notFound, "left the pipeline") {
            try channel.pipeline.syncOperations.context(handlerType: FirstRequestHeadHandler.self)
        }
        #expect(try channel.readInbound(as: ByteBuffer.self).map { String(buffer: $0) } == "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive && !cut.isMarked)
    }
}
