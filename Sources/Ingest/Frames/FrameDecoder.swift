import FixRecords
/// Decodes a byte stream (one TCP connection) frame by frame.
///
/// One value per connection: it may keep session state such as the device
/// identity announced at login, which later frames of GT06 and Teltonika omit.
public protocol StreamFrameDecoder: Sendable {
    /// The protocol this decoder speaks.
    static var wireProtocol: WireProtocol { get }

    /// Starts a fresh session.
    init()

    /// Decodes the frame at the start of `bytes`.
    ///
    /// Returns nil when `bytes` holds only part of a frame (call again when
    /// more arrived), the frame otherwise, whose `length` says how many bytes
    /// to drop. Throws when the bytes cannot be a valid frame; the error says
    /// whether to skip them or close the connection. Must never read beyond
    /// `bytes` nor trust a length field further than the protocol's limit.
    mutating func decodeFrame(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame?

    /// Continues as if the device had already identified itself as
    /// `deviceId`: for offline decoding of a frame copied out of a session.
    mutating func assumeIdentity(_ deviceId: String)
}

extension StreamFrameDecoder {
    /// Protocols whose every frame names its device need no session identity.
    public mutating func assumeIdentity(_ deviceId: String) {}
}

/// Decodes self-contained datagrams (UDP): no session, every datagram says
/// who sent it.
public protocol DatagramDecoder: Sendable {
    /// The protocol this decoder speaks.
    static var wireProtocol: WireProtocol { get }

    /// Decodes one whole datagram; its `length` is the datagram's size.
    static func decodeDatagram(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> DecodedFrame
}
