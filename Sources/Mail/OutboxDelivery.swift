import Foundation
import Logging
import Metrics
import ServiceClock
import Storage

/// Delivers the outbox to the relay (SPEC A2): each round sends the
/// e-mails that are due, oldest first, records each attempt in the store
/// (sent, or why not and when to try again), and gives up on an e-mail the
/// relay refused for good, after ``maximumAttempts``, or when it is older
/// than ``maximumAge`` (a confirmation token would have expired).
/// Counted in `mytaxi_emails_total{outcome="sent|retry|failed"}`.
public struct OutboxDelivery: Sendable {
    /// The most attempts an e-mail gets.
    public static let maximumAttempts = 10
    /// An e-mail not sent after this long is given up.
    public static let maximumAge: TimeInterval = 24 * 3600
    /// The pause after the first failed attempt; it doubles with each, up to ``longestPause``.
    public static let firstPause: TimeInterval = 30
    /// The longest pause between two attempts.
    public static let longestPause: TimeInterval = 3600

    private let store: any AccountStore
    private let send: @Sendable (EmailMessage, Date) async throws(SMTPError) -> Void
    private let clock: any ServiceClock
    private let logger: Logger
    private let sent: Counter
    private let retried: Counter
    private let failed: Counter

    /// A delivery of `store`'s outbox through `client`.
    public init(store: any AccountStore, client: SMTPClient, clock: any ServiceClock, logger: Logger, metrics: any MetricsFactory) {
        self.init(store: store, clock: clock, logger: logger, metrics: metrics) { message, date throws(SMTPError) in
            try await client.send(message, at: date)
        }
    }

    /// A delivery through `send` (a test's relay).
    public init(
        store: any AccountStore, clock: any ServiceClock, logger: Logger, metrics: any MetricsFactory,
        send: @escaping @Sendable (EmailMessage, Date) async throws(SMTPError) -> Void
    ) {
        self.store = store
        self.send = send
        self.clock = clock
        self.logger = logger
        sent = Counter(label: "mytaxi_emails_total", dimensions: [("outcome", "sent")], factory: metrics)
        retried = Counter(label: "mytaxi_emails_total", dimensions: [("outcome", "retry")], factory: metrics)
        failed = Counter(label: "mytaxi_emails_total", dimensions: [("outcome", "failed")], factory: metrics)
    }

    /// How long the e-mails a round takes are kept from every other round
    /// (another node's, or this one's after a crash): longer than a round's
    /// sends at their slowest.
    public static let claim: TimeInterval = 15 * 60

    /// Sends what is due now, at most `limit` e-mails, taken from the store
    /// so that no other node sharing it sends them too.
    /// - Returns: how many were sent, put back for a retry, and given up.
    @discardableResult
    public func deliverDue(limit: Int = 10) async throws(StorageError) -> (sent: Int, retried: Int, failed: Int) {
        var outcome = (sent: 0, retried: 0, failed: 0)
        let now = clock.now
        for email in try await store.claimEmailsDue(at: now, claimedUntil: now.addingTimeInterval(Self.claim), limit: limit) {
            let now = clock.now
            if now.timeIntervalSince(email.createdAt) > Self.maximumAge {
                try await store.recordDelivery(
                    ofEmail: email.id, at: now, failure: "not sent within \(Int(Self.maximumAge / 3600)) h of being written; given up", retryAt: nil)
                failed.increment()
                outcome.failed += 1
                continue
            }
            let failure: SMTPError?
            do throws(SMTPError) {
                try await send(email.message, now)
                failure = nil
            } catch {
                failure = error
            }
            if let error = failure {
                let attempts = email.delivery.attempts + 1
                let retryAt = error.isTransient && attempts < Self.maximumAttempts ? now.addingTimeInterval(Self.pause(after: attempts)) : nil
                try await store.recordDelivery(ofEmail: email.id, at: now, failure: error.description, retryAt: retryAt)
                if retryAt == nil {
                    failed.increment()
                    outcome.failed += 1
                    logger.warning("gave up the e-mail \(email.id) to \(email.message.to) after \(attempts) attempts: \(error)")
                } else {
                    retried.increment()
                    outcome.retried += 1
                    logger.info("the e-mail \(email.id) to \(email.message.to) will be tried again: \(error)")
                }
            } else {
                try await store.recordDelivery(ofEmail: email.id, at: clock.now, failure: nil, retryAt: nil)
                sent.increment()
                outcome.sent += 1
            }
        }
        return outcome
    }

    /// The pause after the `attempts`-th failed attempt.
    static func pause(after attempts: Int) -> TimeInterval {
        min(longestPause, firstPause * pow(2, Double(max(0, attempts - 1))))
    }
}
