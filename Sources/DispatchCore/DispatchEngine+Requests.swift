import FixRecords
import GeoKit
import Zones

/// The passenger's side: immediate requests, confirmation and cancellation (SPEC D3, D4).
extension DispatchEngine {
    /// A passenger asks for a taxi now at `pickup`, in `zone` (resolved by
    /// the caller from the zone index; nil when the pickup is outside the
    /// service area). `walk` is the passenger's walk to `pickup` when it is
    /// a meeting point, kept with the request to be told.
    ///
    /// Refused, with the reason, when the pickup is in no zone or the
    /// passenger already has an open request. Otherwise the request is
    /// opened (`requestOpened` gives its id) and offered to the first taxi of
    /// the zone's queue; with none free, it waits in the zone's passenger
    /// queue (`passengerQueued` with the position) and the passenger must
    /// confirm within ``DispatchRules/confirmationTimeout``.
    ///
    /// A request with a destination and `sharing` is a shared one (SPEC
    /// D10): its rider's bounds are kept, and it joins the taxi `sharing`
    /// names at once when that taxi can still take it; otherwise it is
    /// served as any other, and later riders may join its taxi.
    public mutating func request(
        passenger: PassengerID, pickup: Coordinate, zone: ZoneID?, destination: Coordinate? = nil, walk: PickupWalk? = nil,
        seats: Int? = nil, sharing: RideSharing? = nil, now: Duration
    ) -> [DispatchEvent] {
        recording { engine in
            guard let zone else {
                engine.emitted.append(.requestRefused(passenger, reason: .outsideServiceArea(pickup: pickup)))
                return
            }
            if let open = engine.state.openRequestOfPassenger[passenger] {
                engine.emitted.append(.requestRefused(passenger, reason: .passengerHasOpenRequest(open)))
                return
            }
            let id = RideRequestID(engine.state.nextRequestNumber)
            engine.state.nextRequestNumber += 1
            let expected = engine.expectationByRate(
                in: zone, position: engine.state.passengerQueue(in: zone).count + 1, now: now)
            engine.state.requests[id] = RideRequest(
                id: id, passenger: passenger, pickup: pickup, zone: zone, destination: destination,
                phase: .waiting(confirmBy: nil), openedAt: now, expectedTimeToOffer: expected, walk: walk, partySize: seats,
                sharedRider: destination == nil ? nil : sharing.map {
                    SharedRider(ride: id, seats: seats ?? 1, requestedAt: now, direct: $0.directTrip, rules: engine.rules.sharing)
                })
            engine.state.openRequestOfPassenger[passenger] = id
            engine.emitted.append(.requestOpened(id, passenger: passenger, zone: zone))
            if destination != nil, let join = sharing?.join, engine.joinSharedRide(id, join, now: now) { return }
            engine.enqueuePassenger(id, now: now)
        }
    }

    /// The passenger confirms waiting for a taxi (SPEC D4): the request is no
    /// longer cancelled at the confirmation deadline, and is not asked
    /// again if it has to wait once more. Already confirmed: nothing.
    /// - Throws: ``DispatchError/unknownRequest(_:)``.
    public mutating func confirm(_ id: RideRequestID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard let request = engine.state.requests[id] else { throw .unknownRequest(id) }
            guard !request.confirmed else { return }
            engine.state.requests.modify(id) {
                $0.confirmed = true
                if case .waiting = $0.phase { $0.phase = .waiting(confirmBy: nil) }
            }
            engine.emitted.append(.requestConfirmed(id))
        }
    }

    /// The passenger cancels: the request is never offered again. A pending
    /// offer is withdrawn and its taxi goes back to its old place in the
    /// queue (it did nothing wrong); a taxi already on its way is available
    /// again, at the back, in the zone it is in.
    /// - Throws: ``DispatchError/unknownRequest(_:)``,
    ///   ``DispatchError/rideInProgress(_:)`` once the passenger is aboard, or
    ///   ``DispatchError/reservationCancellationTooLate(_:deadline:)`` for the
    ///   ride of a reservation (its taxi comes after the cancellation deadline).
    public mutating func cancel(_ id: RideRequestID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard let request = engine.state.requests[id] else { throw .unknownRequest(id) }
            if let booked = request.reservation.flatMap({ engine.state.reservations[$0] }) {
                throw .reservationCancellationTooLate(booked.id, deadline: engine.cancellationDeadline(of: booked))
            }
            switch request.phase {
            case .aboard:
                throw .rideInProgress(id)
            case .waiting, .offered:
                engine.cancelUnserved(id, reason: .byPassenger, now: now)
            case .assigned(let taxi, _), .arrived(let taxi, _):
                engine.closeRequest(id)
                engine.emitted.append(.requestCancelled(id, reason: .byPassenger))
                if engine.isOnSharedRide(taxi) {
                    engine.leave(taxi, rider: id, now: now)
                } else {
                    engine.makeAvailableAtTheBack(taxi, now: now)
                }
            }
        }
    }

    /// Cancels request `id` while it waits or is offered: an offer is
    /// withdrawn, and its taxi goes back to its queue at its place (it did
    /// nothing wrong).
    mutating func cancelUnserved(_ id: RideRequestID, reason: CancellationReason, now: Duration) {
        let offered: TaxiID? = if case .offered(let offer) = state.requests[id]?.phase { offer.taxi } else { nil }
        if let offered { emitted.append(.offerWithdrawn(id, taxi: offered)) }
        closeRequest(id)
        emitted.append(.requestCancelled(id, reason: reason))
        guard let offered else { return }
        setState(offered, to: .available)
        reconcileQueue(of: offered, now: now)
    }
}
