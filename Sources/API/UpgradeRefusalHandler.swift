import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Answers a refused WebSocket upgrade with the status and problem the API
/// gave it (401 without a working token, 403 for a role that has no push
/// socket), where Hummingbird's WebSocket channel writes an empty 400 for
/// every refusal.
///
/// ``UpgradeRefusalMiddleware`` leaves the refusal's bytes in ``refusal``;
/// this handler, nearest the socket, writes them in place of the first
/// answer that follows and drops the rest of that answer. When no refusal
/// is left, it lets the first answer pass (a 101 or an ordinary answer) and
/// leaves the pipeline.
final class UpgradeRefusalHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The whole answer to write instead, set by ``UpgradeRefusalMiddleware``.
    let refusal = NIOLockedValueBox<[UInt8]?>(nil)
    private var replaced = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if replaced {
            promise?.succeed()
            return
        }
        guard let answer = refusal.withLockedValue({ $0 }) else {
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        replaced = true
        context.write(wrapOutboundOut(ByteBuffer(bytes: answer)), promise: promise)
    }
}

/// Outermost on the WebSocket router: when the router refuses an upgrade,
/// hands the whole answer (status, headers, problem body) to the
/// connection's ``UpgradeRefusalHandler``, so that the client gets it
/// rather than an empty 400.
struct UpgradeRefusalMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard response.status != .ok, let channel = context.channel else { return response }
        let collector = BodyCollector()
        var body = response.body
        try await body.write(collector)
        let answer = RawHTTPResponse.bytes(status: response.status, headers: response.headers, body: collector.bytes)
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: UpgradeRefusalHandler.self).refusal
        }.get().withLockedValue { $0 = answer }
        return response
    }
}

/// Gathers a response body's bytes.
private final class BodyCollector: ResponseBodyWriter, @unchecked Sendable {
    private let gathered = NIOLockedValueBox<[UInt8]>([])

    var bytes: [UInt8] { gathered.withLockedValue { $0 } }

    func write(_ buffer: ByteBuffer) async throws {
        gathered.withLockedValue { $0 += buffer.readableBytesView }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
