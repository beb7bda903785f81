import Zones

/// How long a passenger will wait for an offer (SPEC D4, D9): now when a
/// taxi is free in the zone, else from the passengers ahead and the rate at
/// which taxis recently became free there. The router's ETA of that taxi
/// to the pickup is the caller's to add.
extension DispatchEngine {
    /// How many of a zone's latest queue arrivals the rate is taken from.
    static let arrivalsKept = 12

    /// The expected time until a new request in `zone` is offered to a
    /// taxi, at `now`: zero when a taxi waits there for it, else the
    /// passengers ahead divided by the recent arrival rate of free taxis in
    /// the zone; nil when fewer than two arrivals were seen there (no rate).
    public func expectedTimeToOffer(in zone: ZoneID, now: Duration) -> Duration? {
        expectedTimeToOffer(in: zone, position: state.passengerQueue(in: zone).count + 1, now: now)
    }

    /// The same for the request at 1-based `position` of `zone`'s passenger queue.
    public func expectedTimeToOffer(in zone: ZoneID, position: Int, now: Duration) -> Duration? {
        let free = state.taxiQueue(in: zone).count
        guard position > free else { return .zero }
        let arrivals = state.recentArrivals[zone] ?? []
        guard arrivals.count >= 2, let oldest = arrivals.first, now > oldest else { return nil }
        let perArrival = (now - oldest) / arrivals.count
        return perArrival * (position - free)
    }

    /// Notes that a taxi joined `zone`'s queue at `now`, keeping the latest few.
    mutating func noteArrival(in zone: ZoneID, now: Duration) {
        var arrivals = state.recentArrivals[zone] ?? []
        arrivals.append(now)
        if arrivals.count > Self.arrivalsKept { arrivals.removeFirst(arrivals.count - Self.arrivalsKept) }
        state.recentArrivals[zone] = arrivals
    }
}
