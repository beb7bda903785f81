import Fleet

/// What one frame on the wire amounts to: the fixes it carries, the identity
/// it announces, and the bytes the server answers once those fixes are stored.
public struct DecodedFrame: Sendable, Equatable {
    /// What kind of message the frame was, for logs, metrics and `mytaxi decode`.
    public enum Kind: String, Sendable {
        /// The terminal introduces itself (GT06 login, Teltonika IMEI handshake, a line-protocol `LOGIN`).
        case login
        /// One or more position fixes.
        case position
        /// Keep-alive or status without a position.
        case heartbeat
        /// An alarm, usually with a position.
        case alarm
        /// Understood but of no use to us (e.g. a command reply); answered if the protocol wants it.
        case other
    }

    /// How many bytes of the stream the frame occupied (the whole datagram for UDP).
    public var length: Int
    public var kind: Kind
    /// The device identity the frame announces (login, IMEI header), if any.
    /// Stream decoders remember it and stamp it on the fixes that follow.
    public var announcedDeviceId: String?
    /// The secret the frame presents for ``announcedDeviceId`` (a line
    /// protocol `LOGIN`); nil when it presents none, as every frame of the
    /// protocols that cannot carry one.
    public var presentedSecret: DeviceSecret?
    /// The fixes in the frame, oldest first as sent.
    public var fixes: [DeviceFix]
    /// Bytes to send back once every fix of the frame is durably archived
    /// (empty when the protocol expects no answer).
    public var reply: [UInt8]
    /// Bytes to send back instead when the device is refused (unknown device
    /// id, a secret missing or wrong); nil means "close the connection
    /// without a word".
    public var refusalReply: [UInt8]?

    public init(
        length: Int, kind: Kind, announcedDeviceId: String? = nil, presentedSecret: DeviceSecret? = nil,
        fixes: [DeviceFix] = [], reply: [UInt8] = [], refusalReply: [UInt8]? = nil
    ) {
        self.length = length
        self.kind = kind
        self.announcedDeviceId = announcedDeviceId
        self.presentedSecret = presentedSecret
        self.fixes = fixes
        self.reply = reply
        self.refusalReply = refusalReply
    }
}
