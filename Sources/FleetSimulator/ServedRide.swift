import Foundation

/// One ride asked for now (not booked ahead) whose taxi reached the pickup: the wait its
/// passenger was told beforehand against the wait had, with what explains
/// a difference (its zone, whether it queued, offers refused first). For
/// measuring the service's wait estimates ride by ride and zone by zone.
public struct ServedRide: Sendable, Equatable {
    /// The service's ride id.
    public var rideId: String
    /// The zone `GET /v1/waits` placed the pickup in; nil when it did not say.
    public var zoneId: String?
    /// When the ride was requested, simulated time.
    public var requestedAt: Date
    /// The wait `GET /v1/waits` told just before the request, seconds; nil when it told none.
    public var toldWaitSeconds: Double?
    /// From the request to the taxi at the pickup, simulated seconds.
    public var waitSeconds: Double
    /// No taxi was free in the zone: the ride waited in its queue.
    public var queued: Bool
    /// Offers of this ride refused by drivers before one accepted (timed-out offers are not counted).
    public var refusals: Int
    /// Whether the taxi that took it was driving (cruising free) rather
    /// than parked: its last fix was then behind it. Nil when not seen.
    public var takenWhileMoving: Bool?
    /// Its taxi's drive to the pickup, standing included, simulated seconds; nil when not seen.
    public var driveSeconds: Double?

    /// The CSV header of ``csvLine``.
    public static let csvHeader = "ride_id,zone_id,requested_at,told_wait_s,wait_s,queued,refusals,taxi_was_moving,drive_s"

    /// The ride as a CSV line, times in ISO 8601 and seconds to the tenth.
    public var csvLine: String {
        [Self.field(rideId), Self.field(zoneId ?? ""), requestedAt.formatted(.iso8601),
         toldWaitSeconds.map { String(format: "%.1f", $0) } ?? "", String(format: "%.1f", waitSeconds), queued ? "1" : "0",
         String(refusals), takenWhileMoving.map { $0 ? "1" : "0" } ?? "",
         driveSeconds.map { String(format: "%.1f", $0) } ?? ""].joined(separator: ",")
    }

    /// `text` as one CSV field: quoted when it holds a comma, a quote or a line break.
    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
