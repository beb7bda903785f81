#if canImport(CNIOLinux)
// `sockaddr_in`'s members belong to whichever module the compiler loaded
// first that declares them: Glibc through Foundation, or NIO's CNIOLinux
// when a file compiled in the same batch imports NIOCore first.
import CNIOLinux
#endif
import Foundation
import NIOCore

/// One CIDR block of `--ingest-allow`: `10.0.0.0/8`, `2001:db8::/32`, or a
/// single address (`192.0.2.7`, `::1`).
///
/// Every address is held as 128 bits, an IPv4 address as its IPv4-mapped
/// IPv6 form (`::ffff:a.b.c.d`), so that an IPv4 block also matches the
/// IPv4 clients of a listener bound to `::`, which sees them mapped.
public struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The block's first address, as 128 bits.
    private let network: UInt128
    /// The prefix's bits set, as 128 bits.
    private let mask: UInt128
    /// The block as it was written, trimmed.
    public let description: String

    /// Reads one block: an IPv4 or IPv6 address, optionally with `/prefix`
    /// (0...32 or 0...128). Bits set beyond the prefix are refused, as
    /// a typo more often than not (`10.1.2.3/8`): the error names the block
    /// that was probably meant.
    public init(parsing text: String) throws(IPAddressRangeError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        description = trimmed
        guard !trimmed.isEmpty else { throw IPAddressRangeError(entry: trimmed, problem: "an empty entry") }
        let parts = trimmed.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let (address, bits) = Self.address(String(parts[0])) else {
            throw IPAddressRangeError(entry: trimmed, problem: "'\(parts[0])' is not an IPv4 or IPv6 address")
        }
        var prefix = bits
        if parts.count == 2 {
            guard parts[1].allSatisfy({ $0 >= "0" && $0 <= "9" }), let value = Int(parts[1]), (0...bits).contains(value) else {
                throw IPAddressRangeError(
                    entry: trimmed, problem: "the prefix length '/\(parts[1])' must be a whole number 0...\(bits)")
            }
            prefix = value
        }
        // An IPv4 prefix counts from the 97th bit of the mapped address.
        let length = prefix + (128 - bits)
        mask = length == 0 ? 0 : ~UInt128(0) << (128 - length)
        network = address & mask
        guard network == address else {
            throw IPAddressRangeError(
                entry: trimmed,
                problem: "bits are set beyond the /\(prefix) prefix; the block is \(Self.text(network, bits: bits))/\(prefix)")
        }
    }

    /// The blocks of a comma-separated list (`10.0.0.0/8,2001:db8::/32`),
    /// as `--ingest-allow` and `--trusted-proxy` take them.
    /// - Throws: ``IPAddressRangeError`` naming the first bad block.
    public static func list(parsing text: String) throws(IPAddressRangeError) -> [IPAddressRange] {
        var ranges: [IPAddressRange] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            ranges.append(try IPAddressRange(parsing: String(entry)))
        }
        return ranges
    }

    /// True when `address` lies in this block.
    public func contains(_ address: SocketAddress) -> Bool {
        guard let bits = Self.bits(of: address) else { return false }
        return bits & mask == network
    }

    /// The address as 128 bits (IPv4 mapped), nil for a Unix socket.
    static func bits(of address: SocketAddress) -> UInt128? {
        switch address {
        case .v4(let ipv4):
            let value = withUnsafeBytes(of: ipv4.address.sin_addr) { raw in raw.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
            return UInt128(0xFFFF) << 32 | value
        case .v6(let ipv6):
            return withUnsafeBytes(of: ipv6.address.sin6_addr) { raw in raw.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
        case .unixDomainSocket:
            return nil
        }
    }

    /// An address written as IPv4 or IPv6: its 128 bits and how many of
    /// them the written form has (32 or 128); nil when it is neither.
    private static func address(_ text: String) -> (UInt128, Int)? {
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &bytes) == 1 {
            return (bytes.prefix(4).reduce(UInt128(0xFFFF)) { $0 << 8 | UInt128($1) }, 32)
        }
        if inet_pton(AF_INET6, text, &bytes) == 1 {
            return (bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }, 128)
        }
        return nil
    }

    /// `address` written back as IPv4 (`bits` 32) or IPv6.
    private static func text(_ address: UInt128, bits: Int) -> String {
        var bytes = (0..<16).map { UInt8(truncatingIfNeeded: address >> (8 * (15 - $0))) }
        guard bits == 128 else { return bytes.suffix(4).map(String.init).joined(separator: ".") }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A CIDR block that cannot be read, naming it and what is wrong.
public struct IPAddressRangeError: Error, Equatable, CustomStringConvertible {
    /// The block as written.
    public var entry: String
    /// What is wrong with it.
    public var problem: String

    public var description: String { "'\(entry)' is not a CIDR block: \(problem)" }
}
