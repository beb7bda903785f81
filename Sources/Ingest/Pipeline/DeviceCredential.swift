import Fleet

/// A secret a device presented (a line-protocol `LOGIN` line, an OsmAnd
/// `key` parameter): it vouches for that device's fixes only, never for
/// another device's that arrive beside them.
public struct DeviceCredential: Sendable, Equatable {
    /// The device the secret was presented for.
    public var deviceId: String
    /// The secret as presented, to be compared with the registered one.
    public var secret: DeviceSecret

    public init(deviceId: String, secret: DeviceSecret) {
        self.deviceId = deviceId
        self.secret = secret
    }

    /// The secret presented for `deviceId`, nil when this credential is another device's.
    public func secret(for deviceId: String) -> DeviceSecret? {
        self.deviceId == deviceId ? secret : nil
    }
}
