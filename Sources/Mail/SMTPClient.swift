import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Storage

/// Sends one e-mail to the relay (RFC 5321): greeting, EHLO, STARTTLS and
/// EHLO again when the relay is reached in plain text, AUTH PLAIN (or
/// LOGIN) when a user is named, MAIL FROM, RCPT TO, DATA, QUIT. One
/// connection per e-mail: the outbox sends few, and a connection never
/// outlives what it was opened for.
public struct SMTPClient: Sendable {
    public let relay: SMTPRelay
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup
    private let timeout: TimeAmount
    /// The name this host gives in EHLO.
    private let helloName: String

    /// A client of `relay` on `group`, each reply awaited at most `timeout`.
    /// - Throws: ``SMTPError/misconfigured(_:)`` when the TLS settings cannot be made (a bad CA file).
    public init(relay: SMTPRelay, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, timeout: TimeAmount = .seconds(30)) throws(SMTPError) {
        self.relay = relay
        self.group = group
        self.timeout = timeout
        helloName = ProcessInfo.processInfo.hostName.isEmpty ? "localhost" : ProcessInfo.processInfo.hostName
        guard relay.security != .none else {
            tls = nil
            return
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let file = relay.trustedCertificatesFile { configuration.additionalTrustRoots = [.file(file)] }
        do {
            tls = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .misconfigured("cannot set up TLS for the relay (--smtp-ca-file?): \(error)")
        }
    }

    /// Hands `message` to the relay.
    /// - Throws: ``SMTPError/transient(_:)`` when trying again later may
    ///   help (no connection, a 4xx, a timeout); ``SMTPError/permanent(_:)``
    ///   when the relay refused it (5xx) or offers no STARTTLS.
    public func send(_ message: EmailMessage, at date: Date) async throws(SMTPError) {
        let connection = try await SMTPConnection.open(
            host: relay.host, port: relay.port, tls: relay.security == .implicitTLS ? tls : nil, group: group, timeout: timeout)
        do {
            try await dialogue(message, at: date, on: connection)
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }

    private func dialogue(_ message: EmailMessage, at date: Date, on connection: SMTPConnection) async throws(SMTPError) {
        try expect(try await connection.reply(), "the greeting")
        var hello = try expect(try await connection.command("EHLO \(helloName)"), "EHLO")
        if relay.security == .startTLS, let tls {
            guard hello.offers("STARTTLS") else {
                throw .permanent(
                    "the relay \(relay.host):\(relay.port) offers no STARTTLS; use smtps:// for TLS from the start, or ?tls=none for a relay on this machine")
            }
            try expect(try await connection.command("STARTTLS"), "STARTTLS")
            try await connection.startTLS(tls, host: relay.host)
            hello = try expect(try await connection.command("EHLO \(helloName)"), "EHLO after STARTTLS")
        }
        if let username = relay.username, let password = relay.password {
            try await authenticate(username, password, offered: hello.authMechanisms, on: connection)
        }
        try expect(try await connection.command("MAIL FROM:<\(relay.from)>"), "MAIL FROM")
        try expect(try await connection.command("RCPT TO:<\(message.to)>"), "RCPT TO \(message.to)")
        try expect(try await connection.command("DATA"), "DATA")
        let messageID = "\(UUID().uuidString.lowercased())@\(relay.from.split(separator: "@").last ?? "mytaxi")"
        try await connection.write(SMTPMessage.data(of: message, from: relay.from, date: date, messageID: messageID))
        try expect(try await connection.reply(), "the message")
        _ = try? await connection.command("QUIT")
    }

    private func authenticate(_ username: String, _ password: String, offered: Set<String>, on connection: SMTPConnection) async throws(SMTPError) {
        if offered.contains("PLAIN") || !offered.contains("LOGIN") {
            let credentials = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            try expect(try await connection.command("AUTH PLAIN \(credentials)"), "AUTH PLAIN as \(username)")
        } else {
            try expect(try await connection.command("AUTH LOGIN"), "AUTH LOGIN")
            try expect(try await connection.command(Data(username.utf8).base64EncodedString()), "AUTH LOGIN's user")
            try expect(try await connection.command(Data(password.utf8).base64EncodedString()), "AUTH LOGIN as \(username)")
        }
    }

    /// `reply` when positive; else the error its class says, naming `step`.
    @discardableResult
    private func expect(_ reply: SMTPReply, _ step: String) throws(SMTPError) -> SMTPReply {
        guard !reply.isPositive else { return reply }
        let reason = "the relay refused \(step): \(reply)"
        throw reply.code < 500 ? .transient(reason) : .permanent(reason)
    }
}
