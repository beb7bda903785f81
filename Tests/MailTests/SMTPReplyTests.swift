import Foundation
import Storage
import Testing
@testable import Mail

/// Replies as relays send them (RFC 5321 §4.2), and the message as it goes after DATA.
@Suite(.timeLimit(.minutes(20))) struct SMTPReplyTests {
    @Test func aMultiLineEHLOReplyIsOneReplyWithItsExtensions() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.take("250-mail.example.org Hello") == nil)
        #expect(try parser.take("250-STARTTLS") == nil)
        #expect(try parser.take("250-AUTH LOGIN PLAIN") == nil)
        let reply = try #require(try parser.take("250 8BITMIME"))
        #expect(reply.code == 250 && reply.isPositive)
        #expect(reply.offers("starttls") && reply.offers("8BITMIME") && !reply.offers("SMTPUTF8"))
        #expect(reply.authMechanisms == ["LOGIN", "PLAIN"])
        #expect(try parser.take("354 End data with <CR><LF>.<CR><LF>")?.isPositive == true)
        #expect(try parser.take("550")?.code == 550, "a bare code is a reply")
    }

    @Test func aLineThatIsNotSMTPIsATransientError() {
        var parser = SMTPReplyParser()
        #expect(throws: SMTPError.transient("the relay answered a line that is not SMTP: HTTP/1.1 400 Bad Request")) {
            try parser.take("HTTP/1.1 400 Bad Request")
        }
        var mixed = SMTPReplyParser()
        #expect(throws: SMTPError.self) {
            _ = try mixed.take("250-first")
            _ = try mixed.take("251 second")
        }
    }

    @Test func theMessageIsBase64TextUnderASCIIHeaders() throws {
        let message = EmailMessage(to: "ada@example.org", subject: "Bestätigung", body: "Hello Ada,\n.\nline two\n")
        let data = SMTPMessage.data(
            of: message, from: "no-reply@taxi.example", date: Date(timeIntervalSince1970: 1_796_506_331), messageID: "1@taxi.example")
        let lines = data.components(separatedBy: "\r\n")
        #expect(lines.contains("Subject: =?UTF-8?B?\(Data("Bestätigung".utf8).base64EncodedString())?="))
        #expect(lines.contains("Date: Sat, 05 Dec 2026 21:32:11 +0000"))
        #expect(lines.contains("Content-Transfer-Encoding: base64"))
        #expect(data.hasSuffix("\r\n.\r\n"))
        let body = lines.drop { !$0.isEmpty }.dropFirst().prefix { $0 != "." }.joined()
        #expect(String(decoding: try #require(Data(base64Encoded: body)), as: UTF8.self) == "Hello Ada,\r\n.\r\nline two\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 }, "no line too long for a relay")
    }

    @Test func aRelayURLSaysHowToReachItAndNeverShowsThePassword() throws {
        let relay = try SMTPRelay(url: "smtp://mailer@mail.example.org", from: "no-reply@taxi.example", password: "pw-1")
        #expect(relay.port == 587 && relay.security == .startTLS && relay.username == "mailer")
        #expect(relay.description == "smtp://mailer@mail.example.org:587 (STARTTLS)")
        #expect(try SMTPRelay(url: "smtps://mail.example.org", from: "a@b.org", password: nil).port == 465)
        #expect(try SMTPRelay(url: "smtp://127.0.0.1:2525?tls=none", from: "a@b.org", password: nil).security == .none)
        #expect(throws: SMTPError.self) { try SMTPRelay(url: "smtp://mailer:pw@mail.example.org", from: "a@b.org", password: nil) }
        #expect(throws: SMTPError.self) { try SMTPRelay(url: "smtp://mailer@mail.example.org", from: "a@b.org", password: nil) }
        #expect(throws: SMTPError.self) { try SMTPRelay(url: "http://mail.example.org", from: "a@b.org", password: nil) }
    }
}
