import HummingbirdCore
import Logging
import NIOCore

/// Closes a connection whose first request's head does not arrive whole
/// within the timeout, counted from the moment the connection opens.
///
/// On the API port a connection's first request is read by the WebSocket
/// upgrade negotiation, before ``HTTPRequestDeadlineHandler`` is in the
/// pipeline; this handler, nearest the socket, keeps the same promise for
/// that head (a client that opens a connection and sends nothing, or a
/// header a byte at a time, is cut off) and leaves the pipeline once the
/// blank line that ends the head has been read.
final class FirstRequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes of the head read so far, for a blank line split across reads.
    private var tail: [UInt8] = []

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytesView
        let headEnded = Self.containsBlankLine(tail + bytes.prefix(3)) || Self.containsBlankLine(Array(bytes))
        tail = Array((tail + bytes.suffix(3)).suffix(3))
        context.fireChannelRead(data)
        if headEnded { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    private func arm(context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
    }

    /// True when `bytes` holds CR LF CR LF, the end of an HTTP head.
    private static func containsBlankLine(_ bytes: some Collection<UInt8>) -> Bool {
        var matched = 0
        for byte in bytes {
            let expected: UInt8 = matched % 2 == 0 ? 13 : 10
            if byte == expected {
                matched += 1
                if matched == 4 { return true }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        return false
    }
}

/// A server child channel that puts a ``FirstRequestDeadlineHandler`` in
/// front of `base`'s pipeline.
struct FirstRequestDeadlineChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestDeadlineHandler(timeout: timeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Base.Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
