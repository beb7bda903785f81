import HTTPTypes
import HummingbirdCore
import Ingest
import Logging
import NIOCore

/// Holds a connection's first request head to what the API accepts before
/// any parser sees it: it must arrive whole within the timeout, counted
/// from the moment the connection opens, and it must be small.
///
/// On the API port a connection's first request is read by the WebSocket
/// upgrade negotiation, before ``HTTPRequestDeadlineHandler`` is in the
/// pipeline and without the HTTP error handling that answers a bad request.
/// This handler, nearest the socket, therefore
/// - closes a connection whose head is not whole in time (a client that
///   opens a connection and sends nothing, or a header a byte at a time),
///   and tells ``cut`` so that the closing is not logged as an error;
/// - answers a request line longer than ``maximumRequestLine`` with 414 and
///   a head longer than ``maximumHead`` with 431 (a 100 KB `?token=`), and
///   closes, instead of leaving the client waiting for the deadline;
/// and leaves the pipeline once the blank line that ends the head was read.
final class FirstRequestHeadHandler: ChannelInboundHandler, RemovableChannelHandler, DeadlineChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest request line read (method, target, version): ample for
    /// every URL of the API, bearer token included.
    static let maximumRequestLine = 8 * 1024
    /// The longest head read, request line and header fields together.
    static let maximumHead = 32 * 1024

    let openingTimeout: TimeAmount
    private let cut: ConnectionCut
    var deadline = ChannelDeadline()
    private var headBytes = 0
    private var requestLineEnded = false
    /// How many bytes of CR LF CR LF were matched at the end of what was read.
    private var blankLineMatched = 0
    private var refused = false

    init(timeout: TimeAmount, cut: ConnectionCut) {
        openingTimeout = timeout
        self.cut = cut
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        var headEnded = false
        for byte in unwrapInboundIn(data).readableBytesView {
            headBytes += 1
            if byte == 10 { requestLineEnded = true }
            if !requestLineEnded && headBytes > Self.maximumRequestLine {
                return refuse(.uriTooLong, "the request line is longer than \(Self.maximumRequestLine) bytes: shorten the URL", context: context)
            }
            if headBytes > Self.maximumHead {
                return refuse(
                    .requestHeaderFieldsTooLarge, "the request head is longer than \(Self.maximumHead) bytes: send fewer or shorter header fields",
                    context: context)
            }
            let expected: UInt8 = blankLineMatched % 2 == 0 ? 13 : 10
            if byte == expected {
                blankLineMatched += 1
                if blankLineMatched == 4 {
                    headEnded = true
                    break
                }
            } else {
                blankLineMatched = byte == 13 ? 1 : 0
            }
        }
        context.fireChannelRead(data)
        if headEnded { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// Answers `status` with a problem naming `detail`, then closes.
    private func refuse(_ status: HTTPResponse.Status, _ detail: String, context: ChannelHandlerContext) {
        refused = true
        cut.mark()
        let answer = RawHTTPResponse.problem(status, detail: detail)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: answer))).whenComplete { _ in
            loopBound.value.close(promise: nil)
        }
    }

    func deadlineExpired(context: ChannelHandlerContext) {
        cut.mark()
        context.close(promise: nil)
    }
}
