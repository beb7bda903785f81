import Foundation

/// An e-mail in the outbox (SPEC A2): written with what it is about, in
/// the same transaction, then delivered by SMTP to the configured relay
/// (`serve --smtp`), or, without a relay, read by administrators.
public struct OutboxEmail: Sendable, Equatable, Codable {
    /// The store's id, increasing in the order the e-mails were written.
    public let id: Int64
    /// When it was written, to the millisecond.
    public let createdAt: Date
    /// What it says, to whom.
    public let message: EmailMessage
    /// Where its delivery stands.
    public let delivery: EmailDelivery

    /// An e-mail as the store returns it.
    public init(id: Int64, createdAt: Date, message: EmailMessage, delivery: EmailDelivery = EmailDelivery()) {
        self.id = id
        self.createdAt = createdAt
        self.message = message
        self.delivery = delivery
    }
}

/// Where an e-mail's delivery stands: queued (perhaps after failed
/// attempts, until its next one), sent, or failed for good with the reason.
public struct EmailDelivery: Sendable, Equatable, Codable {
    /// What became of it.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Not sent yet: waiting for its first or next attempt.
        case queued
        /// The relay took it.
        case sent
        /// Given up: the relay refused it for good, or every attempt failed.
        case failed
    }

    public var state: State
    /// The attempts made so far.
    public var attempts: Int
    /// Why the last attempt failed, as the relay or the network said.
    public var lastError: String?
    /// When the next attempt is due (queued e-mails only).
    public var nextAttemptAt: Date?
    /// When the relay took it.
    public var sentAt: Date?

    /// A delivery as the store returns it; queued and never tried by default.
    public init(state: State = .queued, attempts: Int = 0, lastError: String? = nil, nextAttemptAt: Date? = nil, sentAt: Date? = nil) {
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
        self.sentAt = sentAt
    }
}
