import FixRecords
import Fleet

/// Shared rides (SPEC D10): a taxi carrying riders who asked to share
/// keeps an itinerary of their pickups and drop-offs, and the driver's
/// reports act on its stops, one rider at a time. A rider the dispatcher
/// matched joins the taxi at once (the driver took a shared ride, so takes
/// its riders); the taxi is free again when its last stop is made.
extension DispatchEngine {
    /// Whether `taxi` is on a shared ride: its reports act on its itinerary.
    func isOnSharedRide(_ taxi: TaxiID) -> Bool {
        !(state.taxis[taxi]?.itinerary.isEmpty ?? true)
    }

    /// Puts shared request `id` into `join`'s taxi's itinerary, when that
    /// taxi is still on a shared ride with room for the rider's party at
    /// every stop; false (nothing changed) otherwise, and the request then
    /// goes to its zone's queue like any other.
    mutating func joinSharedRide(_ id: RideRequestID, _ join: RideSharing.Join, now: Duration) -> Bool {
        guard case .busy = state.state(of: join.taxi), let record = state.taxis[join.taxi], !record.itinerary.isEmpty,
              (0...record.itinerary.count).contains(join.pickupIndex),
              ((join.pickupIndex + 1)...(record.itinerary.count + 1)).contains(join.dropoffIndex)
        else { return false }
        var stops = record.itinerary
        stops.insert(ItineraryStop(ride: id, kind: .pickup), at: join.pickupIndex)
        stops.insert(ItineraryStop(ride: id, kind: .dropoff), at: join.dropoffIndex)
        guard seatsFit(stops, capacity: record.seats) else { return false }
        state.requests.modify(id) {
            $0.phase = .assigned(taxi: join.taxi, eta: join.eta)
            $0.etaToldAt = join.eta == nil ? nil : now
        }
        emitted.append(.riderJoined(id, taxi: join.taxi, eta: join.eta))
        setItinerary(of: join.taxi, to: stops, now: now)
        return true
    }

    /// Whether the riders of `stops` (those aboard: dropped off ahead and
    /// not picked up) never take more than `capacity` seats at once.
    func seatsFit(_ stops: [ItineraryStop], capacity: Int) -> Bool {
        let waiting = Set(stops.lazy.filter { $0.kind == .pickup }.map(\.ride))
        var load = stops.lazy.filter { $0.kind == .dropoff && !waiting.contains($0.ride) }
            .reduce(0) { $0 + (state.requests[$1.ride]?.seats ?? 1) }
        guard load <= capacity else { return false }
        for stop in stops {
            let seats = state.requests[stop.ride]?.seats ?? 1
            load += stop.kind == .pickup ? seats : -seats
            guard load <= capacity else { return false }
        }
        return true
    }

    /// Gives `taxi` the itinerary `stops`: the driver is told it, the taxi is
    /// busy with the next stop's ride, or available at the back of its zone's
    /// queue once no stop is left.
    mutating func setItinerary(of taxi: TaxiID, to stops: [ItineraryStop], now: Duration) {
        state.taxis.modify(taxi) { $0.sharedStops = stops.isEmpty ? nil : stops }
        emitted.append(.itineraryChanged(taxi, stops: stops))
        if let next = stops.first {
            setState(taxi, to: .busy(next.ride))
        } else {
            makeAvailableAtTheBack(taxi, now: now)
        }
    }

    /// `taxi`'s itinerary and the index in it of the stop a report of
    /// `step` acts on: `rider`'s stop of `kind` when the driver named the
    /// rider, else the next stop, which must be of `kind`.
    /// - Throws: ``DispatchError/rideStepOutOfOrder(_:_:)`` when there is no such stop.
    func sharedStop(
        of taxi: TaxiID, _ kind: SharedStop.Kind, rider: RideRequestID?, for step: RideStep
    ) throws(DispatchError) -> (stops: [ItineraryStop], index: Int, ride: RideRequestID) {
        let stops = state.taxis[taxi]?.itinerary ?? []
        let index = if let rider { stops.firstIndex { $0.ride == rider && $0.kind == kind } } else { stops.first?.kind == kind ? 0 : nil }
        guard let index else { throw .rideStepOutOfOrder(taxi, step) }
        return (stops, index, stops[index].ride)
    }

    /// The taxi is at a rider's pickup.
    mutating func sharedArrived(_ taxi: TaxiID, rider: RideRequestID?, now: Duration) throws(DispatchError) {
        let id = try sharedStop(of: taxi, .pickup, rider: rider, for: .arrived).ride
        guard case .assigned = state.requests[id]?.phase else { throw .rideStepOutOfOrder(taxi, .arrived) }
        state.requests.modify(id) { $0.phase = .arrived(taxi: taxi, since: now) }
        emitted.append(.taxiArrived(id, taxi: taxi))
    }

    /// A rider got in: the pickup is made. A rider named out of turn may
    /// board only when the seats still fit every stop before its own.
    mutating func sharedAboard(_ taxi: TaxiID, rider: RideRequestID?, now: Duration) throws(DispatchError) {
        let found = try sharedStop(of: taxi, .pickup, rider: rider, for: .passengerAboard)
        let id = found.ride
        switch state.requests[id]?.phase {
        case .assigned, .arrived:
            var stops = found.stops
            stops.remove(at: found.index)
            // A rider picked up out of turn rides along to every pickup before its own was planned.
            guard seatsFit(stops, capacity: state.taxis[taxi]?.seats ?? DeviceRegistry.defaultSeats) else {
                throw .noRoomAboard(taxi, id)
            }
            state.requests.modify(id) {
                $0.phase = .aboard(taxi: taxi)
                $0.sharedRider?.pickedUpAt = now
            }
            emitted.append(.passengerAboard(id, taxi: taxi))
            setItinerary(of: taxi, to: stops, now: now)
        default:
            throw .rideStepOutOfOrder(taxi, .passengerAboard)
        }
    }

    /// A rider got out at the destination: the rider's request closes.
    mutating func sharedCompleted(_ taxi: TaxiID, rider: RideRequestID?, now: Duration) throws(DispatchError) {
        let found = try sharedStop(of: taxi, .dropoff, rider: rider, for: .completed)
        let id = found.ride
        guard case .aboard = state.requests[id]?.phase else { throw .rideStepOutOfOrder(taxi, .completed) }
        emitted.append(.rideCompleted(id, taxi: taxi))
        closeRequest(id)
        var stops = found.stops
        stops.remove(at: found.index)
        setItinerary(of: taxi, to: stops, now: now)
    }

    /// A rider did not come: only that rider's stops are dropped, once the
    /// taxi has waited ``DispatchRules/missingClientWait`` at the pickup.
    mutating func sharedMissingClient(_ taxi: TaxiID, rider: RideRequestID?, now: Duration) throws(DispatchError) {
        let id = try sharedStop(of: taxi, .pickup, rider: rider, for: .missingClient).ride
        guard case .arrived(_, let since) = state.requests[id]?.phase else { throw .rideStepOutOfOrder(taxi, .missingClient) }
        let allowedFrom = since + rules.missingClientWait
        guard now >= allowedFrom else { throw .missingClientTooEarly(taxi, allowedFrom: allowedFrom) }
        emitted.append(.clientMissing(id, taxi: taxi))
        closeRequest(id)
        leave(taxi, rider: id, now: now)
    }

    /// Takes `rider`'s stops out of `taxi`'s itinerary (a rider who did not
    /// come, or cancelled before boarding); the other riders keep theirs.
    mutating func leave(_ taxi: TaxiID, rider: RideRequestID, now: Duration) {
        setItinerary(of: taxi, to: (state.taxis[taxi]?.itinerary ?? []).filter { $0.ride != rider }, now: now)
    }
}
