import FixRecords
import Zones

/// A new zone set in the running service (SPEC Z4).
extension DispatchEngine {
    /// Moves taxis, requests and reservations to their zones under a new
    /// zone set, as `change` lists them.
    ///
    /// - A taxi moves at once, without a dwell (its position did not
    ///   change, the map did), keeping its place in line; a zone change it
    ///   was dwelling on is forgotten.
    /// - A waiting request moves to its new zone's passenger queue, in
    ///   request order, keeping its confirmation deadline; an offered one
    ///   keeps its offer and, if refused, goes on in its new zone.
    /// - A reservation without a taxi takes its taxi from its new zone.
    /// - A request or reservation whose pickup the new set leaves outside
    ///   every zone is cancelled (`outsideZones`), which its passenger hears
    ///   of; a taxi holding its offer goes back to its queue at its place.
    ///
    /// Then each zone that gained a passenger or a reservation is served
    /// from its queue.
    public mutating func replaceZones(_ change: ZoneReassignment, now: Duration) -> [DispatchEvent] {
        recording { engine in
            var gained: [ZoneID] = []
            for moved in change.requests {
                if let zone = engine.rezone(moved.request, to: moved.zone, now: now) { gained.append(zone) }
            }
            for moved in change.reservations {
                if let zone = engine.rezone(moved.reservation, to: moved.zone) { gained.append(zone) }
            }
            for moved in change.taxis {
                engine.moveNow(moved.taxi, to: moved.zone, now: now)
            }
            for zone in gained { engine.dispatch(in: zone, now: now) }
        }
    }

    /// Gives request `id` its zone under the new set, or cancels it when it
    /// has none; returns the zone it moved to.
    private mutating func rezone(_ id: RideRequestID, to zone: ZoneID?, now: Duration) -> ZoneID? {
        guard let request = state.requests[id] else { return nil }
        guard let zone else {
            cancelUnserved(id, reason: .outsideZones, now: now)
            return nil
        }
        guard case .waiting = request.phase else {
            state.requests.modify(id) { $0.zone = zone }
            return zone
        }
        removeFromPassengerQueue(id)
        state.requests.modify(id) { $0.zone = zone }
        var queue = state.passengerQueue(in: zone)
        queue.insert(id, at: queue.firstIndex { $0 > id } ?? queue.endIndex)
        state.passengerQueues[zone] = queue
        return zone
    }

    /// Gives reservation `id` its origin's zone under the new set, or
    /// cancels it when it has none; returns the zone it moved to.
    private mutating func rezone(_ id: ReservationID, to zone: ZoneID?) -> ZoneID? {
        guard let reservation = state.reservations[id] else { return nil }
        guard let zone else {
            state.reservations[id] = nil
            closedByLastCall.reservations.append(reservation)
            emitted.append(.reservationCancelled(id, reason: .outsideZones))
            return nil
        }
        state.reservations.modify(id) { $0.zone = zone }
        return zone
    }
}
