import NIOCore

/// The source addresses the terminals' TCP and UDP listeners serve
/// (`--ingest-allow`): a connection from elsewhere is closed as soon as it
/// is accepted, a datagram from elsewhere dropped, both counted
/// (`reason="not_allowed"`) and never decoded.
///
/// For terminals that cannot carry a device secret (GT06, Teltonika, NMEA):
/// their device id alone moves a taxi, so only their own network (a
/// private APN, a VPN) should reach them. Empty: every address is served.
public struct IngestAllowList: Sendable, Equatable, CustomStringConvertible {
    /// The blocks allowed; empty when every address is.
    public let ranges: [IPAddressRange]

    /// Every address allowed.
    public init() {
        ranges = []
    }

    /// Reads a comma-separated list of CIDR blocks (`10.0.0.0/8,2001:db8::/32`).
    /// - Throws: ``IPAddressRangeError`` naming the first bad block.
    public init(parsing text: String) throws(IPAddressRangeError) {
        ranges = try IPAddressRange.list(parsing: text)
    }

    /// True when a connection or datagram from `address` may be served:
    /// every address when the list is empty, else one in a block (an
    /// unknown source is not).
    public func allows(_ address: SocketAddress?) -> Bool {
        guard !ranges.isEmpty else { return true }
        guard let address else { return false }
        return ranges.contains { $0.contains(address) }
    }

    /// The blocks, comma-separated; `any` when every address is allowed.
    public var description: String {
        ranges.isEmpty ? "any" : ranges.map(\.description).joined(separator: ",")
    }
}
