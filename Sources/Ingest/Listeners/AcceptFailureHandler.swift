import FixRecords
import Logging
import NIOCore
import Synchronization

/// Counts and logs the errors of a TCP listener's `accept` (first in the
/// listening channel's pipeline), then passes them on to NIO's
/// `AcceptBackoffHandler`, which waits a second before accepting again
/// instead of spinning on a connection it cannot take. The connections
/// already open are not touched: they keep being served.
final class AcceptFailureHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel

    private let wireProtocol: WireProtocol
    private let metrics: IngestMetrics
    private let log: AcceptFailureLog

    init(wireProtocol: WireProtocol, metrics: IngestMetrics, log: AcceptFailureLog) {
        self.wireProtocol = wireProtocol
        self.metrics = metrics
        self.log = log
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let ioError = error as? IOError {
            let reason = AcceptFailureReason(errno: ioError.errnoCode)
            metrics.acceptFailed(wireProtocol, reason)
            log.failed(wireProtocol, reason, error: ioError)
        }
        context.fireErrorCaught(error)
    }
}

/// The warning logged when a TCP listener cannot accept connections: at
/// most one line every ten seconds, each saying how many failures it stands
/// for (see ``WarningThrottle``); the metrics count every one. Shared by
/// the listeners of every protocol.
final class AcceptFailureLog: Sendable {
    private let logger: Logger
    private let throttle = Mutex(WarningThrottle(interval: .seconds(10)))

    init(logger: Logger) {
        self.logger = logger
    }

    /// Notes one failed accept and logs it when a line is due.
    func failed(_ wireProtocol: WireProtocol, _ reason: AcceptFailureReason, error: IOError) {
        let now = ContinuousClock.now
        guard let count = throttle.withLock({ $0.record(at: now) }) else { return }
        logger.warning(
            "\(count) failed accept(s) on the ingest listeners (the latest: \(wireProtocol.rawValue), \(error)): \(reason.advice); waiting connections stay queued, open ones are served",
            metadata: ["protocol": "\(wireProtocol.rawValue)", "reason": "\(reason.rawValue)", "failures": "\(count)"])
    }
}
