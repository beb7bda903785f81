import Foundation

/// A fix a simulated terminal saw the service acknowledge: the service
/// promised it is archived (or judged and refused), so the archive must
/// hold it unless it was refused. `mytaxi simulate --acknowledged-fixes`
/// writes them, for a check of the archive after a failure (Tools/chaos.sh).
public struct AcknowledgedFix: Sendable, Equatable {
    /// The terminal's device id.
    public let deviceId: String
    /// The fix's own time, to the second, as the frame carried it.
    public let time: Date

    /// The CSV header of ``csvLine``.
    public static let csvHeader = "device_id,time"

    /// The device id and the time in ISO 8601 (UTC), as a CSV line.
    public var csvLine: String { "\(deviceId),\(time.formatted(.iso8601))" }
}
