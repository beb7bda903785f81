/// One reply of an SMTP server (RFC 5321 §4.2): a three-digit code and its
/// text, which may span several lines (`250-...` then `250 ...`).
public struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    /// The reply code, 200 to 599.
    public let code: Int
    /// The text of every line, without the code.
    public let lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// 2xx and 3xx: the command was taken (3xx: go on, as after DATA).
    public var isPositive: Bool { (200..<400).contains(code) }

    /// `CODE text`, the lines joined: what a log line or an error shows.
    public var description: String { "\(code) \(lines.joined(separator: " "))" }

    /// Whether an EHLO reply offers `keyword` (`STARTTLS`, `AUTH`, ...), in any case.
    public func offers(_ keyword: String) -> Bool {
        lines.dropFirst().contains { $0.split(separator: " ").first?.uppercased() == keyword.uppercased() }
    }

    /// The AUTH mechanisms an EHLO reply offers.
    public var authMechanisms: Set<String> {
        guard let line = lines.dropFirst().first(where: { $0.uppercased().hasPrefix("AUTH") }) else { return [] }
        return Set(line.split(separator: " ").dropFirst().map { $0.uppercased() })
    }
}

/// Gathers reply lines into replies.
struct SMTPReplyParser {
    private var code: Int?
    private var lines: [String] = []

    /// Takes one line; a reply when it was the last of one.
    /// - Throws: ``SMTPError/transient(_:)`` for a line that is not of a reply.
    mutating func take(_ line: String) throws(SMTPError) -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let lineCode = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(lineCode),
              bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-")
        else { throw .transient("the relay answered a line that is not SMTP: \(line.prefix(80))") }
        if let code, code != lineCode { throw .transient("the relay changed its reply code within a reply: \(line.prefix(80))") }
        code = lineCode
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return nil }
        defer {
            code = nil
            lines = []
        }
        return SMTPReply(code: lineCode, lines: lines)
    }
}
