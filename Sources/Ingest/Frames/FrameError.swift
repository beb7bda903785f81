/// Why a frame could not be decoded, and how the connection goes on after it.
///
/// A bad frame costs at most its own connection (SPEC I1): decoders say
/// whether the stream can resynchronise past it or must be closed.
public struct FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The counted reason, used as the `reason` label of the rejected-frames metric.
    public enum Reason: String, Sendable, CaseIterable {
        /// Checksum (CRC, NMEA `*hh`) does not match the content.
        case badChecksum = "bad_checksum"
        /// A field is missing, has the wrong syntax, or is out of its range.
        case malformed
        /// A length field or an unterminated line exceeds the protocol's limit.
        case oversized
        /// A well-formed message of a type or codec we do not handle.
        case unsupported
        /// Bytes that are not the start of any frame of this protocol.
        case garbage
        /// Positions before the terminal said who it is (no login or handshake yet).
        case notIdentified = "not_identified"
    }

    /// What the connection does after the error.
    public enum Recovery: Sendable, Equatable {
        /// Drop this many bytes (the bad frame) and go on decoding.
        case skip(Int)
        /// The stream cannot be trusted any more: close this connection.
        case closeConnection
    }

    public var reason: Reason
    /// A sentence for logs and `mytaxi decode`, naming the field or byte offset at fault.
    public var message: String
    public var recovery: Recovery

    public init(_ reason: Reason, _ message: String, recovery: Recovery) {
        self.reason = reason
        self.message = message
        self.recovery = recovery
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}
