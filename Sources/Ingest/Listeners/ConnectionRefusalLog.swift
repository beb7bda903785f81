import FixRecords
import Logging
import Synchronization

/// The warning logged when the ingest listeners refuse a connection beyond
/// ``IngestConnectionLimits/maxConnections``: at most one line every ten
/// seconds, each saying how many connections it stands for (see
/// ``WarningThrottle``). Shared by the event loops that accept connections.
final class ConnectionRefusalLog: Sendable {
    private let logger: Logger
    private let limit: Int
    private let throttle = Mutex(WarningThrottle(interval: .seconds(10)))

    init(logger: Logger, limit: Int) {
        self.logger = logger
        self.limit = limit
    }

    /// Notes one refused connection of `wireProtocol` and logs it when a line is due.
    func refused(_ wireProtocol: WireProtocol) {
        let now = ContinuousClock.now
        guard let count = throttle.withLock({ $0.record(at: now) }) else { return }
        logger.warning(
            "refused \(count) ingest connection(s) (the latest: \(wireProtocol.rawValue)): \(limit) are open, the max-connections limit",
            metadata: ["protocol": "\(wireProtocol.rawValue)", "refused": "\(count)", "limit": "\(limit)"])
    }
}
