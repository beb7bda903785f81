import Foundation
import HTTPTypes
import Hummingbird
import Ingest
import NIOCore

/// The reverse proxies in front of the API (`--trusted-proxy`), whose
/// `X-Forwarded-For` says who the client is: behind one, every request
/// comes from the proxy's address, and the per-address limits (logins,
/// registrations) would count all users as one. The header is believed
/// only from these addresses, since any client can send it.
public struct TrustedProxies: Sendable, Equatable {
    /// The proxies' address blocks; empty: no proxy is trusted.
    public let ranges: [IPAddressRange]

    /// No proxy trusted: the client is the connection's peer.
    public init() {
        ranges = []
    }

    /// Reads a comma-separated list of CIDR blocks (`10.0.0.5,192.0.2.0/24`).
    /// - Throws: ``IPAddressRangeError`` naming the first bad block.
    public init(parsing text: String) throws(IPAddressRangeError) {
        ranges = try IPAddressRange.list(parsing: text)
    }

    /// The client of `request` (``clientAddress(forwardedFor:peer:)``).
    func clientAddress(of request: Request, peer: SocketAddress?) -> String {
        clientAddress(forwardedFor: request.headers[values: .xForwardedFor], peer: peer)
    }

    /// The client's address: the peer's, unless the peer is a trusted
    /// proxy; then the right-most address of the `X-Forwarded-For` values
    /// that is not itself a trusted proxy (what the nearest untrusted hop
    /// said), and the peer's when they name none.
    func clientAddress(forwardedFor values: [String], peer: SocketAddress?) -> String {
        guard let peer else { return "unknown" }
        let peerText = peer.ipAddress ?? "unknown"
        guard isTrusted(peer) else { return peerText }
        let hops = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            // A hop that is no address is garbage from the client's side: the proxy is all that can be told.
            guard let address = try? SocketAddress(ipAddress: hop, port: 0) else { return peerText }
            if !isTrusted(address) { return address.ipAddress ?? hop }
        }
        return peerText
    }

    private func isTrusted(_ address: SocketAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`, which reverse proxies add.
    static var xForwardedFor: Self { Self("X-Forwarded-For")! }
}
