import FixRecords
import Fleet

/// Which devices must present their secret, over which protocols
/// (docs/operations.md, "Device secrets").
///
/// A device with a secret in the devices file must always present it: a
/// secret set is a secret enforced, with or without
/// `--require-device-secret`. Only the line protocol (its `LOGIN` line) and
/// OsmAnd (its `key` parameter) can carry one; GT06, Teltonika and NMEA
/// identify by device id alone, so a device that has a secret is refused
/// there (its id alone must not move its taxi), while a device without one
/// is accepted there even when secrets are required: such terminals belong
/// on a private network or behind `--ingest-allow`.
public struct DeviceSecretPolicy: Sendable, Equatable {
    /// `--require-device-secret`: a device without a secret in the devices
    /// file is refused over the protocols that can carry one.
    public var requireSecrets: Bool

    public init(requireSecrets: Bool = false) {
        self.requireSecrets = requireSecrets
    }

    /// True for the protocols whose messages can carry a device's secret.
    public static func canCarrySecret(_ wireProtocol: WireProtocol) -> Bool {
        switch wireProtocol {
        case .line, .osmand: true
        case .nmea, .teltonika, .teltonikaUDP, .gt06: false
        }
    }

    /// Why `device` may not report over `wireProtocol` having presented
    /// `presented` (nil: no secret); nil when it may.
    public func refusal(for device: RegisteredDevice, presented: DeviceSecret?, via wireProtocol: WireProtocol) -> RejectReason? {
        guard let secret = device.secret else {
            return requireSecrets && Self.canCarrySecret(wireProtocol) ? .secretNotRegistered : nil
        }
        guard let presented else { return .missingSecret }
        return secret.matches(presented) ? nil : .badSecret
    }

    /// A warning for the operator when secrets are required and devices of
    /// `registry` have none; nil when there is nothing to say.
    public func warning(for registry: DeviceRegistry) -> String? {
        let without = registry.count - registry.secretCount
        guard requireSecrets, without > 0 else { return nil }
        return "--require-device-secret: \(without) of \(registry.count) devices have no secret in the devices file; "
            + "their line-protocol and OsmAnd fixes are refused (secret_not_registered), "
            + "while GT06, Teltonika and NMEA terminals, which cannot carry one, are still accepted by device id"
    }
}
