import Zones

/// A zone a taxi's fixes put it in that does not count yet: it becomes the
/// taxi's zone once the taxi has stayed there for the dwell of
/// ``DispatchRules/zoneDwell``, and is forgotten if the taxi goes back to its
/// zone first (SPEC D2: a taxi on a border does not flip queues).
public struct PendingZoneChange: Equatable, Sendable, Codable {
    /// The new zone; nil when the taxi left the service area.
    public let zone: ZoneID?
    /// When the taxi was first seen there, on the monotonic clock.
    public let since: Duration
}
