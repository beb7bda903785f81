/// Why a decoded fix was not accepted (SPEC I3, I4); the `reason` label of
/// the rejected-fixes metric. A rejected fix is still acknowledged to the
/// device (resending it would not make it better) but never archived.
public enum RejectReason: String, CaseIterable, Sendable, Error {
    /// A number of the fix (time, coordinates, speed, heading, altitude,
    /// accuracy, battery) is NaN or infinite: no decoder should let one
    /// through, and none may reach the archive or the live index.
    case nonFinite = "non_finite"
    /// The terminal itself flagged the fix as not from a GPS lock.
    case gpsInvalid = "gps_invalid"
    /// Latitude or longitude outside WGS84 ranges.
    case outOfRange = "out_of_range"
    /// Exactly (0, 0): a receiver with no fix that reports zeros.
    case nullIsland = "null_island"
    /// Taken further in the future than the allowed clock skew.
    case futureTime = "future_time"
    /// Taken longer ago than the archive accepts.
    case tooOld = "too_old"
    /// The same device already sent a fix with this time.
    case duplicate
    /// Reaching it from the device's previous fix needs an impossible speed.
    case implausibleJump = "implausible_jump"
    /// The device is not in the devices file.
    case unknownDevice = "unknown_device"
    /// The TCP connection is bound to another device: the first device it
    /// named (see ``TerminalBinding``); one connection speaks for one device.
    case deviceMismatch = "device_mismatch"
    /// The device has a secret and presented none: no `LOGIN` line before
    /// its fixes, no OsmAnd `key`, or a protocol that cannot carry one
    /// (GT06, Teltonika, NMEA) for a device that has a secret.
    case missingSecret = "missing_secret"
    /// The device presented a secret that is not its own.
    case badSecret = "bad_secret"
    /// `--require-device-secret` is on and the device has no secret in the
    /// devices file, over a protocol that can carry one (line, OsmAnd).
    case secretNotRegistered = "secret_not_registered"

    /// True for the refusals of a device's secret (missing, wrong, or none
    /// registered while required): the sender is not believed to be the
    /// device, whatever the fix says.
    public var refusesSecret: Bool {
        switch self {
        case .missingSecret, .badSecret, .secretNotRegistered: true
        default: false
        }
    }
}
