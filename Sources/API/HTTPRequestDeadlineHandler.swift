import HTTPTypes
import Ingest
import NIOCore
import NIOHTTPTypes

/// Closes an HTTP connection whose client does not send a whole request in
/// time: from the moment the connection opens, and again from each
/// response, the next request (head to end) must arrive within `timeout`.
///
/// An idle timeout alone does not stop a slowloris client, which sends a
/// header a byte at a time, each byte resetting the idle clock; this
/// deadline does not move while a request trickles in.
final class HTTPRequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler, DeadlineChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    var deadline = ChannelDeadline()

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    var openingTimeout: TimeAmount { timeout }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { disarmDeadline() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { armDeadline(in: timeout, context: context) }
        context.write(data, promise: promise)
    }

    func deadlineExpired(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
