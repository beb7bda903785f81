import Foundation

/// The mail relay the outbox is delivered to (`serve --smtp URL`): where it
/// is, how the connection is protected, and who logs in.
///
/// `smtp://[USER@]HOST[:PORT]` speaks STARTTLS and refuses a relay that
/// does not offer it (port 587 by default); `smtps://` speaks TLS from the
/// first byte (465); `?tls=none` allows a relay without TLS, for one on
/// the same machine (25). The password never appears in the URL: it comes
/// from a file or the environment, and no description of a relay shows it.
public struct SMTPRelay: Sendable, Equatable, CustomStringConvertible {
    /// How the connection to the relay is protected.
    public enum Security: String, Sendable, Equatable {
        /// Plain text, upgraded with STARTTLS before anything else; a relay without it is refused.
        case startTLS = "starttls"
        /// TLS from the first byte.
        case implicitTLS = "implicit"
        /// No TLS: only for a relay on the same machine or a trusted network.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// Who logs in (AUTH PLAIN or LOGIN), nil for a relay that takes mail without.
    public var username: String?
    /// The login's password.
    public var password: String?
    /// The sender's address (`From:` and `MAIL FROM`).
    public var from: String
    /// A PEM file of the certificate authorities the relay's certificate is
    /// checked against, besides the system's (a company's own CA).
    public var trustedCertificatesFile: String?

    /// A relay; the password, if any, from elsewhere than the URL.
    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil, from: String,
        trustedCertificatesFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.from = from
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// The relay `url` names, sending as `from`, logging in with `password` when the URL names a user.
    /// - Throws: ``SMTPError/misconfigured(_:)`` saying what is wrong with the URL.
    public init(url text: String, from: String, password: String?, trustedCertificatesFile: String? = nil) throws(SMTPError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .misconfigured("--smtp must be smtp://[USER@]HOST[:PORT] or smtps://..., not '\(text)'")
        }
        if url.password != nil {
            throw .misconfigured("--smtp must not carry the password (it would show in the process list): give it with --smtp-password-file or MYTAXI_SMTP_PASSWORD")
        }
        var security: Security
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: throw .misconfigured("--smtp must start with smtp:// (STARTTLS) or smtps:// (TLS), not \(scheme)://")
        }
        if let tls = url.queryItems?.first(where: { $0.name == "tls" })?.value {
            guard let named = Security(rawValue: tls) else {
                throw .misconfigured("--smtp's tls= must be starttls, implicit or none, not '\(tls)'")
            }
            security = named
        }
        let username = url.user?.removingPercentEncoding
        if username != nil && password == nil {
            throw .misconfigured("--smtp names the user \(username ?? ""): give its password with --smtp-password-file or MYTAXI_SMTP_PASSWORD")
        }
        self.init(
            host: host, port: url.port ?? (security == .implicitTLS ? 465 : security == .startTLS ? 587 : 25), security: security,
            username: username, password: password, from: from, trustedCertificatesFile: trustedCertificatesFile)
    }

    /// `smtp://user@host:port (STARTTLS)`: never the password.
    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        return "\(scheme)://\(username.map { "\($0)@" } ?? "")\(host):\(port) (\(security == .none ? "no TLS" : security == .startTLS ? "STARTTLS" : "TLS"))"
    }
}
