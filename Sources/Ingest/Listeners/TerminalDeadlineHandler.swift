import FixRecords
import NIOCore

/// Closes a terminal's TCP connection that does not identify itself in time
/// or then falls silent, and counts why.
///
/// Before identification the deadline is fixed from the moment the
/// connection opened, whatever it sends: a client dripping a byte at a time
/// cannot hold the socket longer. Once ``TerminalIdentified`` comes down the
/// pipeline (while the read that named the device is handled), the
/// connection may stay silent for the idle timeout after each read. One
/// timer per connection, re-armed only when it fires.
final class TerminalDeadlineHandler: ChannelDuplexHandler, DeadlineChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private let limits: IngestConnectionLimits
    private let metrics: IngestMetrics
    private let wireProtocol: WireProtocol
    private var identified = false
    var deadline = ChannelDeadline()

    init(limits: IngestConnectionLimits, metrics: IngestMetrics, wireProtocol: WireProtocol) {
        self.limits = limits
        self.metrics = metrics
        self.wireProtocol = wireProtocol
    }

    var openingTimeout: TimeAmount { limits.identificationTimeout }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if identified { moveDeadline(in: limits.idleTimeout, context: context) }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is TerminalIdentified else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        identified = true
        moveDeadline(in: limits.idleTimeout, context: context)
        promise?.succeed()
    }

    func deadlineExpired(context: ChannelHandlerContext) {
        metrics.connectionTimedOut(wireProtocol, identified: identified)
        context.close(promise: nil)
    }
}
