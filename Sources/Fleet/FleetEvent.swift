import FixRecords
import Foundation
import Zones

/// What changed in the live fleet, as the dispatch engine needs to hear it:
/// a taxi appearing, changing zone, falling silent and coming back (SPEC I5,
/// D2). Position updates within a zone are not events: they are read from
/// the index when needed.
public enum FleetEvent: Sendable, Equatable, Codable {
    /// A taxi heard of for the first time since the start, in `zone` (nil:
    /// outside every zone).
    case appeared(TaxiID, zone: ZoneID?, at: Date)
    /// A taxi's newest position is in another zone than before (or left
    /// every zone, or entered one).
    case changedZone(TaxiID, from: ZoneID?, to: ZoneID?, at: Date)
    /// Nothing heard from the taxi for longer than the stale limit.
    case wentStale(TaxiID, lastHeard: Date)
    /// A stale taxi reported again, in `zone`.
    case cameBack(TaxiID, zone: ZoneID?, at: Date)
}
