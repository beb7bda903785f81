import FixRecords
import Logging
import NIOCore
import Synchronization

/// The warning logged when a listener turns away a source outside
/// `--ingest-allow`: at most one line every ten seconds, each saying how
/// many connections and datagrams it stands for and the latest source (see
/// ``WarningThrottle``), so that a scan of the port cannot fill the disk.
/// Shared by every listener.
final class NotAllowedLog: Sendable {
    private let logger: Logger
    private let throttle = Mutex(WarningThrottle(interval: .seconds(10)))

    init(logger: Logger) {
        self.logger = logger
    }

    /// Notes one connection or datagram from `address` turned away, and logs it when a line is due.
    func refused(_ wireProtocol: WireProtocol, from address: SocketAddress?) {
        let now = ContinuousClock.now
        guard let count = throttle.withLock({ $0.record(at: now) }) else { return }
        let source = address?.ipAddress ?? "an unknown address"
        logger.warning(
            "turned away \(count) ingest connection(s) or datagram(s) from outside --ingest-allow (the latest: \(source) on \(wireProtocol.rawValue))",
            metadata: ["protocol": "\(wireProtocol.rawValue)", "source": "\(source)", "refused": "\(count)"])
    }
}
