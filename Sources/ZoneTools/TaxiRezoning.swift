import GeoKit
import Zones

/// Which taxis a new zone set would put in another zone than the old one,
/// for `mytaxi zones diff --taxis`: the zone of each position under each
/// set, by the border rule (``ZoneIndex``).
public struct TaxiRezoning: Sendable {
    /// One taxi whose zone would change; nil where it is outside every zone.
    public struct Move: Sendable, Equatable {
        public let taxiId: String
        public let from: ZoneID?
        public let to: ZoneID?

        /// The taxi `taxiId` moving from one zone to another.
        public init(taxiId: String, from: ZoneID?, to: ZoneID?) {
            self.taxiId = taxiId
            self.from = from
            self.to = to
        }
    }

    /// The taxis whose zone would change, by taxi id.
    public let moves: [Move]
    /// How many taxis were looked at.
    public let taxis: Int

    /// Places each taxi under `old` and `new`.
    public init(taxis: [ZoneServiceClient.TaxiPosition], old: ZoneSet, new: ZoneSet) throws {
        let oldIndex = try ZoneIndex(zoneSet: old)
        let newIndex = try ZoneIndex(zoneSet: new)
        moves = taxis.compactMap { taxi in
            let from = oldIndex.zonePosition(at: taxi.position).map { old.zones[$0].id }
            let to = newIndex.zonePosition(at: taxi.position).map { new.zones[$0].id }
            return from == to ? nil : Move(taxiId: taxi.taxiId, from: from, to: to)
        }.sorted { $0.taxiId < $1.taxiId }
        self.taxis = taxis.count
    }

    /// `N of M taxis would change zone`, then one line per taxi: `TX1: 12 → 13`.
    public var report: [String] {
        ["\(moves.count) of \(taxis) taxis would change zone"] + moves.map { move in
            "\(move.taxiId): \(move.from?.text ?? "outside") → \(move.to?.text ?? "outside")"
        }
    }
}
