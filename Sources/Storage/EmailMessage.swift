/// An e-mail to send: what goes into the outbox.
public struct EmailMessage: Sendable, Equatable, Codable {
    /// The recipient's address.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The plain-text body.
    public var body: String

    /// An e-mail to `to`.
    public init(to: String, subject: String, body: String) {
        self.to = to
        self.subject = subject
        self.body = body
    }
}
