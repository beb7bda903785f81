import FixRecords
import GeoKit
import Zones

/// What a new zone set changes for the dispatch engine (SPEC Z4): the zone
/// of each taxi, each open request and each reservation whose zone under
/// the new set differs from the one the engine holds. Computed from the
/// engine's state and the taxis' latest positions when the set is swapped
/// in, and logged as one command, so a replay rebuilds the same queues
/// whatever zone file is loaded at the time.
public struct ZoneReassignment: Equatable, Sendable, Codable {
    /// A taxi and its zone under the new set (nil: outside every zone).
    public struct TaxiZone: Equatable, Sendable, Codable {
        public let taxi: TaxiID
        public let zone: ZoneID?

        public init(taxi: TaxiID, zone: ZoneID?) {
            self.taxi = taxi
            self.zone = zone
        }
    }

    /// A request and its pickup's zone under the new set (nil: outside every zone).
    public struct RequestZone: Equatable, Sendable, Codable {
        public let request: RideRequestID
        public let zone: ZoneID?

        public init(request: RideRequestID, zone: ZoneID?) {
            self.request = request
            self.zone = zone
        }
    }

    /// A reservation and its origin's zone under the new set (nil: outside every zone).
    public struct ReservationZone: Equatable, Sendable, Codable {
        public let reservation: ReservationID
        public let zone: ZoneID?

        public init(reservation: ReservationID, zone: ZoneID?) {
            self.reservation = reservation
            self.zone = zone
        }
    }

    /// The taxis whose zone changes, or whose zone change within its dwell
    /// the new set makes moot, in taxi order.
    public let taxis: [TaxiZone]
    /// The requests not yet served by a taxi whose pickup's zone changes, in request order.
    public let requests: [RequestZone]
    /// The reservations without a taxi whose origin's zone changes, in booking order.
    public let reservations: [ReservationZone]

    public init(taxis: [TaxiZone], requests: [RequestZone], reservations: [ReservationZone]) {
        self.taxis = taxis
        self.requests = requests
        self.reservations = reservations
    }

    /// True when the new set changes nothing the engine holds.
    public var isEmpty: Bool { taxis.isEmpty && requests.isEmpty && reservations.isEmpty }
}

extension DispatchSnapshot {
    /// What swapping in the zone set of `zoneOf` changes: each taxi is
    /// placed by its latest coordinate (`coordinates`, nil for a taxi never
    /// heard from, which keeps its zone), each request waiting for or
    /// offered to a taxi by its pickup, each reservation not yet given a
    /// taxi by its origin. A ride under way keeps its zone: its taxi is
    /// already sent.
    public func zoneReassignment(
        coordinates: [TaxiID: Coordinate], zoneOf: (Coordinate) -> ZoneID?
    ) -> ZoneReassignment {
        let taxiZones = taxis.compactMap { taxi, record -> ZoneReassignment.TaxiZone? in
            let zone = coordinates[taxi].map(zoneOf) ?? record.zone
            guard zone != record.zone || record.pendingZone != nil else { return nil }
            return .init(taxi: taxi, zone: zone)
        }
        let requestZones = requests.values.compactMap { request -> ZoneReassignment.RequestZone? in
            switch request.phase {
            case .waiting, .offered: break
            case .assigned, .arrived, .aboard: return nil
            }
            let zone = zoneOf(request.pickup)
            return zone == request.zone ? nil : .init(request: request.id, zone: zone)
        }
        let reservationZones = reservations.values.compactMap { reservation -> ZoneReassignment.ReservationZone? in
            if case .allocated = reservation.phase { return nil }
            let zone = zoneOf(reservation.origin)
            return zone == reservation.zone ? nil : .init(reservation: reservation.id, zone: zone)
        }
        return ZoneReassignment(
            taxis: taxiZones.sorted { $0.taxi < $1.taxi },
            requests: requestZones.sorted { $0.request < $1.request },
            reservations: reservationZones.sorted { $0.reservation < $1.reservation })
    }
}
