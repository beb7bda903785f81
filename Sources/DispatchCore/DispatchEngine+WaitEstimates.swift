import FixRecords
import Zones

/// How long a passenger will wait for a taxi (SPEC D4, D9): a free taxi in
/// the zone takes the request after the drivers' usual time to answer;
/// else the passengers ahead and the rate at which taxis recently became
/// free there say when one will. Both are corrected by what the zone's
/// latest rides showed (``ZoneWaitHistory``). The router's ETA of the free
/// taxi to the pickup is the caller's to add.
extension DispatchEngine {
    /// How many of a zone's latest queue arrivals the rate is taken from.
    static let arrivalsKept = 12

    /// What a new request in `zone` can expect at `now`, or the request at
    /// 1-based `position` of its passenger queue when given; nil when no
    /// taxi is free for it and fewer than two arrivals were seen there (no rate).
    public func expectedWaitForTaxi(in zone: ZoneID, position: Int? = nil, now: Duration) -> TaxiWaitEstimate? {
        let position = position ?? state.passengerQueue(in: zone).count + 1
        guard let untilAccepted = expectedTimeToOffer(in: zone, position: position, now: now) else { return nil }
        let free = state.taxiQueue(in: zone)
        return TaxiWaitEstimate(untilAccepted: untilAccepted, freeTaxi: position <= free.count ? free[0] : nil,
                                typicalDriveToPickup: state.waitHistory[zone]?.typicalDriveToPickup
                                    ?? state.cityWaitHistory.typicalDriveToPickup)
    }

    /// The expected time until a new request in `zone` is taken by a taxi,
    /// at `now`; nil when there is no estimate (see ``expectedWaitForTaxi(in:now:)``).
    public func expectedTimeToOffer(in zone: ZoneID, now: Duration) -> Duration? {
        expectedTimeToOffer(in: zone, position: state.passengerQueue(in: zone).count + 1, now: now)
    }

    /// The same for the request at 1-based `position` of `zone`'s passenger
    /// queue: ``expectationByRate(in:position:now:)`` as the zone's history
    /// corrects it.
    public func expectedTimeToOffer(in zone: ZoneID, position: Int, now: Duration) -> Duration? {
        guard let byRate = expectationByRate(in: zone, position: position, now: now) else { return nil }
        let history = state.waitHistory[zone] ?? ZoneWaitHistory()
        return byRate == .zero ? history.expectedFreeTaxiDelay(city: state.cityWaitHistory) : history.correctedQueueWait(byRate)
    }

    /// Zero when a taxi waits in `zone` for the request at `position`, else
    /// the passengers ahead of it over the recent arrival rate of free
    /// taxis; nil when fewer than two arrivals were seen (no rate).
    func expectationByRate(in zone: ZoneID, position: Int, now: Duration) -> Duration? {
        let free = state.taxiQueue(in: zone).count
        guard position > free else { return .zero }
        let arrivals = state.recentArrivals[zone] ?? []
        guard arrivals.count >= 2, let oldest = arrivals.first, now > oldest else { return nil }
        return (now - oldest) / arrivals.count * (position - free)
    }

    /// Notes that a taxi joined `zone`'s queue at `now`, keeping the latest few.
    mutating func noteArrival(in zone: ZoneID, now: Duration) {
        var arrivals = state.recentArrivals[zone] ?? []
        arrivals.append(now)
        if arrivals.count > Self.arrivalsKept { arrivals.removeFirst(arrivals.count - Self.arrivalsKept) }
        state.recentArrivals[zone] = arrivals
    }

    /// Notes that `request`'s offer was accepted at `now` with a drive of
    /// `eta` to its pickup, in its zone's history and the city's
    /// (reservations aside: their taxi is allocated ahead, not waited for).
    mutating func noteAccepted(_ request: RideRequest, eta: Duration?, now: Duration) {
        guard request.reservation == nil, let expected = request.expectedTimeToOffer else { return }
        let waited = now - request.openedAt
        state.waitHistory[request.zone, default: ZoneWaitHistory()].noteAccepted(waited: waited, expected: expected, drive: eta)
        state.cityWaitHistory.noteAccepted(waited: waited, expected: expected, drive: eta)
    }
}

/// What a new request can expect before its taxi is at the pickup, as far
/// as the dispatch engine knows: the rest is the router's drive.
public struct TaxiWaitEstimate: Equatable, Sendable {
    /// The expected time until a taxi accepts the request.
    public var untilAccepted: Duration
    /// The free taxi the request would be offered now; nil when it must wait for one.
    public var freeTaxi: TaxiID?
    /// The drive to their pickup that the zone's latest accepted offers were
    /// told: a request that waits for a taxi can expect about as much once
    /// one is free. Nil before any.
    public var typicalDriveToPickup: Duration?

    /// The whole wait: until a taxi accepts, plus `freeTaxisDrive` (the
    /// router's drive of ``freeTaxi`` to the pickup, when there is one and
    /// it is known), else the typical drive, else none.
    public func wait(freeTaxisDrive: Duration?) -> Duration {
        untilAccepted + (freeTaxisDrive ?? typicalDriveToPickup ?? .zero)
    }
}
