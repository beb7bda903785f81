import FixRecords

/// The driver's reports during an accepted ride (SPEC D6). The taxi is
/// available again, at the back of its current zone's queue, after either end.
///
/// On a shared ride (D10) each report acts on one rider's stop: the rider
/// the driver names, or the itinerary's next stop; the taxi is available
/// again after its last stop.
extension DispatchEngine {
    /// The taxi is at the pickup; the wait for a missing client starts now.
    /// - Throws: ``DispatchError/rideStepOutOfOrder(_:_:)`` unless the ride was accepted and not yet arrived.
    public mutating func arrived(_ taxi: TaxiID, rider: RideRequestID? = nil, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            if engine.isOnSharedRide(taxi) { return try engine.sharedArrived(taxi, rider: rider, now: now) }
            guard rider == nil || rider == engine.ride(of: taxi) else { throw .rideStepOutOfOrder(taxi, .arrived) }
            guard let id = engine.ride(of: taxi), case .assigned = engine.state.requests[id]?.phase else {
                throw .rideStepOutOfOrder(taxi, .arrived)
            }
            engine.state.requests.modify(id) { $0.phase = .arrived(taxi: taxi, since: now) }
            engine.emitted.append(.taxiArrived(id, taxi: taxi))
        }
    }

    /// The passenger got in (the driver may skip reporting the arrival).
    /// - Throws: ``DispatchError/rideStepOutOfOrder(_:_:)`` unless the ride was accepted and nobody is aboard yet;
    ///   on a shared ride, ``DispatchError/noRoomAboard(_:_:)`` for a rider boarded out of turn who leaves
    ///   no room for the parties to be picked up before it.
    public mutating func passengerAboard(_ taxi: TaxiID, rider: RideRequestID? = nil, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            if engine.isOnSharedRide(taxi) { return try engine.sharedAboard(taxi, rider: rider, now: now) }
            guard rider == nil || rider == engine.ride(of: taxi) else { throw .rideStepOutOfOrder(taxi, .passengerAboard) }
            guard let id = engine.ride(of: taxi) else { throw .rideStepOutOfOrder(taxi, .passengerAboard) }
            switch engine.state.requests[id]?.phase {
            case .assigned, .arrived:
                engine.state.requests.modify(id) { $0.phase = .aboard(taxi: taxi) }
                engine.emitted.append(.passengerAboard(id, taxi: taxi))
            default:
                throw .rideStepOutOfOrder(taxi, .passengerAboard)
            }
        }
    }

    /// The ride ended at the destination: the request closes (its passenger
    /// may ask again) and the taxi is available again.
    /// - Throws: ``DispatchError/rideStepOutOfOrder(_:_:)`` unless the passenger is aboard.
    public mutating func completed(_ taxi: TaxiID, rider: RideRequestID? = nil, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            if engine.isOnSharedRide(taxi) { return try engine.sharedCompleted(taxi, rider: rider, now: now) }
            guard rider == nil || rider == engine.ride(of: taxi) else { throw .rideStepOutOfOrder(taxi, .completed) }
            guard let id = engine.ride(of: taxi), case .aboard = engine.state.requests[id]?.phase else {
                throw .rideStepOutOfOrder(taxi, .completed)
            }
            engine.emitted.append(.rideCompleted(id, taxi: taxi))
            engine.endRide(id, of: taxi, now: now)
        }
    }

    /// Nobody came: allowed only once the taxi has waited
    /// ``DispatchRules/missingClientWait`` since its arrival; the request
    /// closes and the taxi is available again.
    /// - Throws: ``DispatchError/rideStepOutOfOrder(_:_:)`` before the arrival,
    ///   ``DispatchError/missingClientTooEarly(_:allowedFrom:)`` before the wait is over.
    public mutating func missingClient(_ taxi: TaxiID, rider: RideRequestID? = nil, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            if engine.isOnSharedRide(taxi) { return try engine.sharedMissingClient(taxi, rider: rider, now: now) }
            guard rider == nil || rider == engine.ride(of: taxi) else { throw .rideStepOutOfOrder(taxi, .missingClient) }
            guard let id = engine.ride(of: taxi), case .arrived(_, let since) = engine.state.requests[id]?.phase else {
                throw .rideStepOutOfOrder(taxi, .missingClient)
            }
            let allowedFrom = since + engine.rules.missingClientWait
            guard now >= allowedFrom else { throw .missingClientTooEarly(taxi, allowedFrom: allowedFrom) }
            engine.emitted.append(.clientMissing(id, taxi: taxi))
            engine.endRide(id, of: taxi, now: now)
        }
    }

    /// The router's new ETA for the taxi on its way to the pickup of ride
    /// `id`, computed from its fixes: told to the passenger (`etaChanged`)
    /// when it differs from the last one told by more than
    /// ``DispatchRules/etaChangeThreshold`` or that one is
    /// ``DispatchRules/etaRefreshInterval`` old; otherwise nothing changes.
    /// - Throws: ``DispatchError/unknownRequest(_:)``; a ride no longer on its
    ///   way to the pickup takes no ETA and changes nothing.
    public mutating func updateETA(_ id: RideRequestID, eta: Duration, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard let request = engine.state.requests[id] else { throw .unknownRequest(id) }
            guard case .assigned(let taxi, let told) = request.phase else { return }
            let moved = told.map { (($0 > eta) ? $0 - eta : eta - $0) > engine.rules.etaChangeThreshold } ?? true
            let stale = request.etaToldAt.map { now - $0 >= engine.rules.etaRefreshInterval } ?? true
            guard moved || stale else { return }
            engine.state.requests.modify(id) {
                $0.phase = .assigned(taxi: taxi, eta: eta)
                $0.etaToldAt = now
            }
            engine.emitted.append(.etaChanged(id, taxi: taxi, eta: eta))
        }
    }

    private func ride(of taxi: TaxiID) -> RideRequestID? {
        guard case .busy(let id) = state.state(of: taxi) else { return nil }
        return id
    }

    private mutating func endRide(_ id: RideRequestID, of taxi: TaxiID, now: Duration) {
        closeRequest(id)
        makeAvailableAtTheBack(taxi, now: now)
    }
}
