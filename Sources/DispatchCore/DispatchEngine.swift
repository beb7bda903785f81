import FixRecords
import Fleet
import Zones

/// The dispatch engine's pure core (SPEC D1–D4, D6): driver states, zone
/// queues of free taxis, ride requests and their offers, passenger queues
/// and rides, as one value changed only by the commands, fleet events and
/// timer ticks it is given.
///
/// The engine does no I/O and never reads a clock or sleeps: every call
/// says what time it is (`now`, the service clock's monotonic
/// `ServiceClock.uptime`), the engine says when it next needs to be woken
/// (``nextDeadline``), and ``tick(now:wall:)`` fires the offer timeouts,
/// confirmation timeouts and zone dwells that are due. So the same calls
/// give the same decisions, which a test drives with a manual clock and a
/// restart can replay. Its one owner (an actor in the service) serialises
/// the calls, so that two requests never get the same taxi.
///
/// Every call returns the ``DispatchEvent``s it decided, in order. A
/// command that does not fit the current state throws a ``DispatchError``
/// and changes nothing. Commands a terminal may resend (login, logout,
/// available, unavailable, confirm) do nothing when already done, so a
/// resend never costs a taxi its place.
public struct DispatchEngine: Sendable {
    /// The durations the rules use.
    public let rules: DispatchRules
    var state: DispatchSnapshot
    var emitted: [DispatchEvent] = []
    /// The requests the last call closed (cancelled, or their ride ended)
    /// and the reservations it closed (cancelled, or their ride ended), as
    /// they were: what a history keeps of them, without the caller holding
    /// a copy of the whole state (which would make every change copy it).
    public internal(set) var closedByLastCall: (requests: [RideRequest], reservations: [Reservation]) = ([], [])

    /// An engine with `rules`, starting from `snapshot` (empty by default:
    /// no taxi, no request).
    public init(rules: DispatchRules = DispatchRules(), restoring snapshot: DispatchSnapshot = DispatchSnapshot()) {
        self.rules = rules
        self.state = snapshot
    }

    /// The whole state, as a value to compare or keep.
    public var snapshot: DispatchSnapshot { state }

    /// Runs `change` and returns the events it emitted.
    mutating func recording<E: Error>(_ change: (inout DispatchEngine) throws(E) -> Void) throws(E) -> [DispatchEvent] {
        emitted = []
        closedByLastCall = ([], [])
        defer { emitted = [] }
        try change(&self)
        return emitted
    }

    /// Moves `taxi` to `new`, emitting the change when there is one.
    mutating func setState(_ taxi: TaxiID, to new: DriverState) {
        let old = state.state(of: taxi)
        guard old != new else { return }
        state.taxis[taxi, default: TaxiRecord()].state = new
        emitted.append(.driverStateChanged(taxi, from: old, to: new))
    }

    /// A place at the back of every queue, for a taxi available from `now`.
    mutating func placeAtTheBack(now: Duration) -> QueuePlace {
        defer { state.nextPlaceSequence += 1 }
        return QueuePlace(availableSince: now, sequence: state.nextPlaceSequence)
    }

    /// Puts `taxi` in the queue the rules say it belongs to (its zone's, at
    /// its place, or none), and offers waiting requests to it when it joins.
    mutating func reconcileQueue(of taxi: TaxiID, now: Duration) {
        guard let record = state.taxis[taxi] else { return }
        let target = record.isQueueable ? record.zone : nil
        guard record.queuedIn != target else { return }
        if let current = record.queuedIn {
            state.taxiQueues.modify(current, removingWhen: \.isEmpty) { $0.remove(taxi) }
            state.taxis.modify(taxi) { $0.queuedIn = nil }
            emitted.append(.taxiLeftQueue(taxi, zone: current))
        }
        if let target, let place = record.place {
            let position = state.taxiQueues[target, default: ZoneQueue()].insert(taxi, at: place)
            state.taxis.modify(taxi) { $0.queuedIn = target }
            noteArrival(in: target, now: now)
            emitted.append(.taxiJoinedQueue(taxi, zone: target, position: position))
            dispatch(in: target, now: now)
        }
    }

    /// Gives `zone`'s reservations awaiting a taxi theirs, then offers its
    /// waiting requests, oldest first, each to the first taxi of the queue
    /// it has not tried, until no such pair is left.
    mutating func dispatch(in zone: ZoneID, now: Duration) {
        allocateAwaitingReservations(in: zone, now: now)
        while let match = nextMatch(in: zone) {
            offer(match.request, to: match.taxi, now: now)
        }
    }

    private func nextMatch(in zone: ZoneID) -> (request: RideRequestID, taxi: TaxiID)? {
        guard let queue = state.taxiQueues[zone] else { return nil }
        for id in state.passengerQueue(in: zone) {
            guard let request = state.requests[id] else { continue }
            if let entry = queue.entries.first(where: { !request.triedTaxis.contains($0.taxi) && seats(of: $0.taxi) >= request.seats }) {
                return (id, entry.taxi)
            }
        }
        return nil
    }

    /// The first taxi of `zone`'s queue with room for `seats` passengers, if any.
    func firstFreeTaxi(in zone: ZoneID, seating seats: Int) -> TaxiID? {
        state.taxiQueues[zone]?.entries.first { self.seats(of: $0.taxi) >= seats }?.taxi
    }

    /// The passengers `taxi` carries.
    func seats(of taxi: TaxiID) -> Int {
        state.taxis[taxi]?.seats ?? DeviceRegistry.defaultSeats
    }

    private mutating func offer(_ id: RideRequestID, to taxi: TaxiID, now: Duration) {
        removeFromPassengerQueue(id)
        let offer = Offer(taxi: taxi, madeAt: now, expiresAt: now + rules.offerTimeout)
        state.requests.modify(id) {
            $0.phase = .offered(offer)
            $0.triedTaxis.append(taxi)
        }
        emitted.append(.offerMade(id, taxi: taxi, expiresAt: offer.expiresAt))
        setState(taxi, to: .offered(id))
        reconcileQueue(of: taxi, now: now)
    }

    /// Puts request `id` in its zone's passenger queue, in request order,
    /// and offers it if a taxi it has not tried waits there; otherwise tells
    /// the passenger the position and, unless already confirmed, the
    /// confirmation deadline.
    mutating func enqueuePassenger(_ id: RideRequestID, now: Duration) {
        guard let request = state.requests[id] else { return }
        var queue = state.passengerQueue(in: request.zone)
        queue.insert(id, at: queue.firstIndex { $0 > id } ?? queue.endIndex)
        state.passengerQueues[request.zone] = queue
        let confirmBy = request.confirmed ? nil : now + rules.confirmationTimeout
        state.requests.modify(id) { $0.phase = .waiting(confirmBy: confirmBy) }
        dispatch(in: request.zone, now: now)
        guard case .waiting = state.requests[id]?.phase,
              let index = state.passengerQueue(in: request.zone).firstIndex(of: id) else { return }
        emitted.append(.passengerQueued(id, zone: request.zone, position: index + 1, confirmBy: confirmBy))
    }

    /// Takes request `id` out of its zone's passenger queue.
    mutating func removeFromPassengerQueue(_ id: RideRequestID) {
        guard let zone = state.requests[id]?.zone else { return }
        state.passengerQueues.modify(zone, removingWhen: \.isEmpty) { queue in queue.removeAll { $0 == id } }
    }

    /// Forgets request `id` (cancelled, or its ride ended): its passenger
    /// may ask again; a reservation it served is over.
    mutating func closeRequest(_ id: RideRequestID) {
        removeFromPassengerQueue(id)
        guard let request = state.requests.removeValue(forKey: id) else { return }
        closedByLastCall.requests.append(request)
        if state.openRequestOfPassenger[request.passenger] == id { state.openRequestOfPassenger[request.passenger] = nil }
        if let reservation = request.reservation, let closed = state.reservations.removeValue(forKey: reservation) {
            closedByLastCall.reservations.append(closed)
        }
    }

    /// Makes `taxi` available at the back of its zone's queue (after a
    /// refusal, a timeout or the end of a ride).
    mutating func makeAvailableAtTheBack(_ taxi: TaxiID, now: Duration) {
        let back = placeAtTheBack(now: now)
        state.taxis.modify(taxi) { $0.place = back }
        setState(taxi, to: .available)
        reconcileQueue(of: taxi, now: now)
    }
}
