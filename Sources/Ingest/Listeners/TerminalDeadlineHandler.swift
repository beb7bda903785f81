import FixRecords
import NIOCore

/// Closes a terminal's TCP connection that does not identify itself in time
/// or then falls silent, and counts why.
///
/// Before identification the deadline is fixed from the moment the
/// connection opened, whatever it sends: a client dripping a byte at a time
/// cannot hold the socket longer. Once ``TerminalIdentified`` comes down the
/// pipeline, the connection may stay silent for the idle timeout after each
/// read. One timer per connection, re-armed only when it fires.
final class TerminalDeadlineHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private let limits: IngestConnectionLimits
    private let metrics: IngestMetrics
    private let wireProtocol: WireProtocol
    private var identified = false
    private var lastRead = NIODeadline.now()
    private var openedAt = NIODeadline.now()
    private var timer: Scheduled<Void>?

    init(limits: IngestConnectionLimits, metrics: IngestMetrics, wireProtocol: WireProtocol) {
        self.limits = limits
        self.metrics = metrics
        self.wireProtocol = wireProtocol
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = .now()
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is TerminalIdentified else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        identified = true
        promise?.succeed()
    }

    private func start(context: ChannelHandlerContext) {
        guard timer == nil else { return }
        openedAt = .now()
        lastRead = openedAt
        arm(at: openedAt + limits.identificationTimeout, context: context)
    }

    /// When the connection is due to close if nothing changes.
    private var deadline: NIODeadline {
        identified ? lastRead + limits.idleTimeout : openedAt + limits.identificationTimeout
    }

    private func arm(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.fire(context: context)
        }
    }

    private func fire(context: ChannelHandlerContext) {
        timer = nil
        guard context.channel.isActive else { return }
        let due = deadline
        guard due <= .now() else { return arm(at: due, context: context) }
        metrics.connectionTimedOut(wireProtocol, identified: identified)
        context.close(promise: nil)
    }
}
