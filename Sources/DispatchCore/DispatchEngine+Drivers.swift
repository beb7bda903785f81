import FixRecords

/// The driver's commands from the terminal (SPEC D1, D3).
extension DispatchEngine {
    /// The driver logs in: off duty becomes unavailable (no queue until the
    /// driver switches to available). Already logged in: nothing.
    public mutating func login(_ taxi: TaxiID, seats: Int? = nil, driver: String? = nil, now: Duration) -> [DispatchEvent] {
        recording { engine in
            if engine.state.state(of: taxi) == .offDuty { engine.setState(taxi, to: .unavailable) }
            if let seats, engine.state.taxis[taxi]?.seatCount != seats { engine.state.taxis[taxi, default: TaxiRecord()].seatCount = seats }
            if let driver, engine.state.taxis[taxi]?.driver != driver { engine.state.taxis[taxi, default: TaxiRecord()].driver = driver }
        }
    }

    /// The driver logs out, leaving any queue. Already off duty: nothing.
    /// - Throws: ``DispatchError/offerPending(_:_:)`` or ``DispatchError/onRide(_:_:)``.
    public mutating func logout(_ taxi: TaxiID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            switch engine.state.state(of: taxi) {
            case .offDuty: return
            case .offered(let request): throw .offerPending(taxi, request)
            case .busy(let request): throw .onRide(taxi, request)
            case .unavailable, .available:
                engine.state.taxis.modify(taxi) {
                    $0.place = nil
                    $0.driver = nil
                }
                engine.setState(taxi, to: .offDuty)
                engine.reconcileQueue(of: taxi, now: now)
            }
        }
    }

    /// The driver takes rides from `now`: the taxi joins the back of its
    /// zone's queue (when it reports and is in a zone) and may at once be
    /// offered a waiting request. Already available: nothing, the place is kept.
    /// - Throws: ``DispatchError/notLoggedIn(_:)``, ``DispatchError/offerPending(_:_:)`` or ``DispatchError/onRide(_:_:)``.
    public mutating func setAvailable(_ taxi: TaxiID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            switch engine.state.state(of: taxi) {
            case .available: return
            case .offDuty: throw .notLoggedIn(taxi)
            case .offered(let request): throw .offerPending(taxi, request)
            case .busy(let request): throw .onRide(taxi, request)
            case .unavailable: engine.makeAvailableAtTheBack(taxi, now: now)
            }
        }
    }

    /// The driver stops taking rides: the taxi leaves its queue and loses
    /// its place. Already unavailable: nothing.
    /// - Throws: ``DispatchError/notLoggedIn(_:)``, ``DispatchError/offerPending(_:_:)`` or ``DispatchError/onRide(_:_:)``.
    public mutating func setUnavailable(_ taxi: TaxiID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            switch engine.state.state(of: taxi) {
            case .unavailable: return
            case .offDuty: throw .notLoggedIn(taxi)
            case .offered(let request): throw .offerPending(taxi, request)
            case .busy(let request): throw .onRide(taxi, request)
            case .available:
                engine.state.taxis.modify(taxi) { $0.place = nil }
                engine.setState(taxi, to: .unavailable)
                engine.reconcileQueue(of: taxi, now: now)
            }
        }
    }

    /// The driver accepts the pending offer: the taxi is busy with the
    /// request, and the passenger is told the taxi and `eta`, the driving
    /// time from the taxi's position to the pickup that the caller asked the
    /// router for (nil when none could be made) (SPEC D3). The ETA is an
    /// argument, not something the engine looks up, so that replaying the
    /// same commands gives the same state.
    /// - Throws: ``DispatchError/noPendingOffer(_:)``.
    public mutating func accept(_ taxi: TaxiID, eta: Duration?, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard case .offered(let id) = engine.state.state(of: taxi), engine.state.requests[id] != nil else {
                throw .noPendingOffer(taxi)
            }
            engine.state.requests.modify(id) {
                $0.phase = .assigned(taxi: taxi, eta: eta)
                $0.etaToldAt = eta == nil ? nil : now
            }
            if let request = engine.state.requests[id] { engine.noteAccepted(request, eta: eta, now: now) }
            engine.emitted.append(.offerAccepted(id, taxi: taxi, eta: eta))
            engine.state.taxis.modify(taxi) { $0.place = nil }
            engine.setState(taxi, to: .busy(id))
            if engine.state.requests[id]?.isShared == true {
                engine.setItinerary(of: taxi, to: [ItineraryStop(ride: id, kind: .pickup), ItineraryStop(ride: id, kind: .dropoff)], now: now)
            }
        }
    }

    /// The driver refuses the pending offer: the request goes to the next
    /// taxi it has not tried (or waits), and the taxi to the back of its
    /// zone's queue (SPEC D2, D3).
    /// - Throws: ``DispatchError/noPendingOffer(_:)``.
    public mutating func refuse(_ taxi: TaxiID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard case .offered(let id) = engine.state.state(of: taxi) else { throw .noPendingOffer(taxi) }
            engine.emitted.append(.offerRefused(id, taxi: taxi))
            engine.passOn(id, from: taxi, now: now)
        }
    }

    /// After a refusal or a timeout: request `id` looks for its next taxi,
    /// and `taxi`, which turned it down, goes to the back of its queue.
    mutating func passOn(_ id: RideRequestID, from taxi: TaxiID, now: Duration) {
        enqueuePassenger(id, now: now)
        makeAvailableAtTheBack(taxi, now: now)
    }
}
