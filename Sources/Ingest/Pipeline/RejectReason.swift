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
}
