import Foundation

/// An e-mail in the outbox, which stands in for a mail server (SPEC A2):
/// administrators read it; a mail relay would send and then mark it.
public struct OutboxEmail: Sendable, Equatable, Codable {
    /// The store's id, increasing in the order the e-mails were written.
    public let id: Int64
    /// When it was written, to the millisecond.
    public let createdAt: Date
    /// What it says, to whom.
    public let message: EmailMessage

    /// An e-mail as the store returns it.
    public init(id: Int64, createdAt: Date, message: EmailMessage) {
        self.id = id
        self.createdAt = createdAt
        self.message = message
    }
}
