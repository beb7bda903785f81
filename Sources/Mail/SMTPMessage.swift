import Foundation
import Storage

/// An e-mail as it goes after DATA (RFC 5322): headers, then the UTF-8
/// text in base64, lines of 76 characters, so that no line of it is ever
/// too long or starts with a dot, whatever the text holds.
enum SMTPMessage {
    /// The whole DATA section of `message` from `from`, ending with the lone dot.
    static func data(of message: EmailMessage, from: String, date: Date, messageID: String) -> String {
        let body = Data(message.body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
            .base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let headers = [
            "From: \(from)", "To: \(message.to)", "Subject: \(encodedWord(message.subject))", "Date: \(rfc5322(date))",
            "Message-ID: <\(messageID)>", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
        ]
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n.\r\n"
    }

    /// A header's text as it is when ASCII, else as an RFC 2047 encoded word.
    static func encodedWord(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 || $0 < 0x20 }) else { return text }
        return "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// `Sat, 05 Dec 2026 21:32:11 +0000`.
    static func rfc5322(_ date: Date) -> String {
        var format = Date.VerbatimFormatStyle(
            format: "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) +0000",
            locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt, calendar: Calendar(identifier: .gregorian))
        format.timeZone = .gmt
        return date.formatted(format)
    }
}
