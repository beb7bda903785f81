/// Who one TCP connection speaks for: the first device it names (in a
/// login or a fix), and the secret that device presented on it.
///
/// One connection, one device: a terminal reports for itself, so a fix or
/// a login of another device on the same connection is refused
/// (`device_mismatch`) while the connection goes on for its own device.
/// Without it, whoever learnt one device's secret, or reached a connection
/// of a device without one, could report for the whole fleet over it.
struct TerminalBinding {
    /// The device the connection speaks for; nil until it names one.
    private(set) var device: String?
    /// The secret presented by a login of ``device`` on this connection.
    private(set) var credential: DeviceCredential?

    /// True when `deviceId` may speak on this connection: it is the bound
    /// device, or the first one named (and so now bound).
    mutating func admits(_ deviceId: String) -> Bool {
        guard let device else {
            device = deviceId
            return true
        }
        return device == deviceId
    }

    /// Binds to the first device a frame names, when none is bound yet.
    mutating func bindIfUnbound(to deviceId: String?) {
        if device == nil { device = deviceId }
    }

    /// Keeps the secret of an accepted login of the bound device (nil for
    /// the logins of protocols that carry none).
    mutating func loggedIn(_ credential: DeviceCredential?) {
        self.credential = credential
    }
}
