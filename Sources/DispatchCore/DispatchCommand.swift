import FixRecords
import Fleet
import Foundation
import GeoKit
import Zones

/// One input of the dispatch engine as a value: what the durable event log
/// records, so that replaying the commands a service received, each at its
/// time, rebuilds the same state (the engine decides nothing else).
public enum DispatchCommand: Equatable, Sendable, Codable {
    /// The driver logs in (SPEC D1); `seats`, the passengers its taxi
    /// carries as the taxi registry says (nil: the registry's default);
    /// `driver`, the driver's username, whom the statistics count the
    /// taxi's rides and hours for (nil: nobody in particular).
    case login(TaxiID, seats: Int? = nil, driver: String? = nil)
    /// The driver logs out.
    case logout(TaxiID)
    /// The driver takes rides.
    case setAvailable(TaxiID)
    /// The driver stops taking rides.
    case setUnavailable(TaxiID)
    /// The driver accepts the pending offer; `eta` is the router's answer at the time (D3).
    case accept(TaxiID, eta: Duration?)
    /// The driver refuses the pending offer.
    case refuse(TaxiID)
    /// The taxi is at the pickup (D6): the driver said so, or its fixes put
    /// it within the arrival radius. On a shared ride (D10), `rider`'s
    /// pickup, or the next stop when no rider is named; so for the steps below.
    case arrived(TaxiID, rider: RideRequestID? = nil)
    /// The router's ETA of the taxi on its way to the pickup of a ride, from its latest fix (D6).
    case updateETA(RideRequestID, eta: Duration)
    /// The passenger got in.
    case passengerAboard(TaxiID, rider: RideRequestID? = nil)
    /// The ride ended at the destination.
    case completed(TaxiID, rider: RideRequestID? = nil)
    /// Nobody came to the pickup.
    case missingClient(TaxiID, rider: RideRequestID? = nil)
    /// A passenger asks for a taxi now; `zone` is the pickup's zone, nil
    /// outside the service area (D3); `walk`, when the pickup is a meeting
    /// point the passenger walks to (R5); `seats`, the party's when more than
    /// one; `sharing`, when the passenger shares the taxi (D10), with the
    /// taxi the dispatcher matched the rider to.
    case request(
        PassengerID, pickup: Coordinate, zone: ZoneID?, destination: Coordinate?, walk: PickupWalk? = nil, seats: Int? = nil,
        sharing: RideSharing? = nil)
    /// The passenger confirms waiting in the passenger queue (D4).
    case confirm(RideRequestID)
    /// The passenger cancels.
    case cancel(RideRequestID)
    /// A passenger books a ride ahead (D5); `walk`, when the origin is a
    /// meeting point the passenger walks to (R5); `seats`, the party's when more than one.
    case reserve(
        PassengerID, origin: Coordinate, zone: ZoneID?, destination: Coordinate, pickupAt: Date, walk: PickupWalk? = nil, seats: Int? = nil)
    /// The passenger cancels a reservation.
    case cancelReservation(ReservationID)
    /// The service allocates the nearest free taxi to a reservation that awaits one.
    case allocate(ReservationID, taxi: TaxiID)
    /// The live fleet index reported a zone change or a silence (D2).
    case fleet(FleetEvent)
    /// The timers due at the command's time fire.
    case tick
    /// A new zone set took effect: taxis, requests and reservations move to their zones under it (SPEC Z4).
    case replaceZones(ZoneReassignment)
}

extension DispatchEngine {
    /// Carries out `command` at `now` (monotonic time) and `wall` (wall-clock
    /// time, for reservations), as the method of the same name would, and
    /// returns the events it decided.
    /// - Throws: the ``DispatchError`` of that method; the state is then unchanged.
    public mutating func execute(_ command: DispatchCommand, now: Duration, wall: Date) throws(DispatchError) -> [DispatchEvent] {
        switch command {
        case .login(let taxi, let seats, let driver): login(taxi, seats: seats, driver: driver, now: now)
        case .logout(let taxi): try logout(taxi, now: now)
        case .setAvailable(let taxi): try setAvailable(taxi, now: now)
        case .setUnavailable(let taxi): try setUnavailable(taxi, now: now)
        case .accept(let taxi, let eta): try accept(taxi, eta: eta, now: now)
        case .refuse(let taxi): try refuse(taxi, now: now)
        case .arrived(let taxi, let rider): try arrived(taxi, rider: rider, now: now)
        case .updateETA(let id, let eta): try updateETA(id, eta: eta, now: now)
        case .passengerAboard(let taxi, let rider): try passengerAboard(taxi, rider: rider, now: now)
        case .completed(let taxi, let rider): try completed(taxi, rider: rider, now: now)
        case .missingClient(let taxi, let rider): try missingClient(taxi, rider: rider, now: now)
        case .request(let passenger, let pickup, let zone, let destination, let walk, let seats, let sharing):
            request(
                passenger: passenger, pickup: pickup, zone: zone, destination: destination, walk: walk, seats: seats, sharing: sharing,
                now: now)
        case .confirm(let id): try confirm(id, now: now)
        case .cancel(let id): try cancel(id, now: now)
        case .reserve(let passenger, let origin, let zone, let destination, let pickupAt, let walk, let seats):
            reserve(passenger: passenger, origin: origin, zone: zone, destination: destination, pickupAt: pickupAt, walk: walk,
                    seats: seats, now: now, wall: wall)
        case .cancelReservation(let id): try cancelReservation(id, now: now, wall: wall)
        case .allocate(let id, let taxi): try allocate(id, to: taxi, now: now)
        case .fleet(let event): apply(event, now: now)
        case .tick: tick(now: now, wall: wall)
        case .replaceZones(let change): replaceZones(change, now: now)
        }
    }
}

extension DispatchCommand {
    /// True for the commands that only look whether something is due (a
    /// timer tick, a new ETA): when they decide nothing they change nothing,
    /// and need not be logged.
    public var isObservation: Bool {
        switch self {
        case .tick, .updateETA: true
        default: false
        }
    }

    /// What makes the command malformed, nil when nothing does: a
    /// coordinate that is not finite or outside WGS84, or a pickup time that
    /// is not finite, which no zone holds and no log can record.
    public var invalidity: String? {
        if case .reserve(_, _, _, _, let pickupAt, _, _) = self, !pickupAt.timeIntervalSince1970.isFinite {
            return "the pickup time is not a time"
        }
        if let walk, !(walk.seconds.isFinite && walk.metres.isFinite) {
            return "the walk to the pickup has no finite length or time"
        }
        if case .request(_, _, _, _, _, _, let sharing?) = self, !(sharing.directTrip >= .zero && sharing.directTrip < .seconds(86_400)) {
            return "the direct trip of a shared ride must take from 0 to 24 hours"
        }
        if let seats, !(1...DeviceRegistry.maximumSeats).contains(seats) {
            return "\(seats) seats is not a party or a taxi: from 1 to \(DeviceRegistry.maximumSeats)"
        }
        let places: [(String, Coordinate)] = switch self {
        case .request(_, let pickup, _, let destination, let walk, _, _):
            [("pickup", pickup)] + (destination.map { [("destination", $0)] } ?? []) + (walk.map { [("walk's start", $0.from)] } ?? [])
        case .reserve(_, let origin, _, let destination, _, let walk, _):
            [("origin", origin), ("destination", destination)] + (walk.map { [("walk's start", $0.from)] } ?? [])
        default: []
        }
        return places.first { !$0.1.isInRange }.map { "the \($0.0) \($0.1) is not a WGS84 position" }
    }

    /// The seats a request, a booking or a taxi at login names, nil for any other command.
    private var seats: Int? {
        switch self {
        case .login(_, let seats, _), .request(_, _, _, _, _, let seats, _), .reserve(_, _, _, _, _, _, let seats): seats
        default: nil
        }
    }

    /// The walk to a request's or a booking's meeting point, nil for any other command.
    private var walk: PickupWalk? {
        switch self {
        case .request(_, _, _, _, let walk, _, _), .reserve(_, _, _, _, _, let walk, _): walk
        default: nil
        }
    }
}
