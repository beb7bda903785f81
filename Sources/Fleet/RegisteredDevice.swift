import FixRecords

/// One line of the devices file: the taxi a device belongs to, and the
/// secret it must present where its protocol can carry one (nil: none set).
public struct RegisteredDevice: Sendable, Equatable {
    /// The taxi whose position the device reports.
    public let taxi: TaxiID
    /// The device's secret; a secret set is a secret enforced.
    public let secret: DeviceSecret?

    public init(taxi: TaxiID, secret: DeviceSecret? = nil) {
        self.taxi = taxi
        self.secret = secret
    }
}
