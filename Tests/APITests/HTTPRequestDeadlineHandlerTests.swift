import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import API

/// Each request's deadline on an `EmbeddedChannel`: the first counted from
/// the connection's opening, each next one from the previous response, none
/// while a request is being answered; time moves only when the test
/// advances the loop.
@Suite(.timeLimit(.minutes(20))) struct HTTPRequestDeadlineHandlerTests {
    let channel = EmbeddedChannel()

    init() throws {
        try channel.pipeline.syncOperations.addHandler(HTTPRequestDeadlineHandler(timeout: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }

    func advance(by amount: TimeAmount) {
        channel.embeddedEventLoop.advanceTime(by: amount)
    }

    func sendHead() throws {
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/healthz")))
    }

    /// A request whose head came in time but whose end did not is cut at
    /// the deadline: a request trickling in does not put it off.
    @Test func aRequestNotWholeInTimeIsClosed() throws {
        advance(by: .seconds(5))
        try sendHead()
        advance(by: .seconds(5) - .nanoseconds(1))
        #expect(channel.isActive)
        advance(by: .nanoseconds(1))
        #expect(!channel.isActive, "closed 10 s after it opened")
    }

    /// Once a request is whole no deadline runs while it is answered; the
    /// next request is then given the timeout from the response's end.
    @Test func theNextRequestsDeadlineRunsFromTheResponse() throws {
        try sendHead()
        try channel.writeInbound(HTTPRequestPart.end(nil))
        advance(by: .seconds(60))
        #expect(channel.isActive, "a slow answer is not the client's doing")
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        advance(by: .seconds(10) - .nanoseconds(1))
        #expect(channel.isActive)
        advance(by: .nanoseconds(1))
        #expect(!channel.isActive, "closed 10 s after the response, no next request having come")
    }
}
