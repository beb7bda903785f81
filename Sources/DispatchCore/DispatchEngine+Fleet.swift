import FixRecords
import Fleet
import Zones

/// What the live fleet index tells the engine (SPEC D2, I5): where taxis
/// are and which have fallen silent.
extension DispatchEngine {
    /// Applies one fleet event received at `now` (the event's own date is
    /// when the fix was heard; the engine's rules run on the monotonic time
    /// it is given).
    ///
    /// - `appeared`: the taxi's first zone counts at once.
    /// - `changedZone`: the new zone counts once the taxi has stayed there
    ///   for ``DispatchRules/zoneDwell`` (``tick(now:wall:)`` applies it); going
    ///   back to the current zone first cancels the change. A queued taxi
    ///   then moves to the new zone's queue at the same place.
    /// - `wentStale`: the taxi leaves its queue and gets no offer (an offer
    ///   it already holds runs until answered or timed out).
    /// - `cameBack`: the taxi rejoins at its old place when it was stale for
    ///   at most ``DispatchRules/staleGrace``, else at the back; the zone it
    ///   reports from counts at once (it was silent, so there is no jitter to
    ///   filter).
    public mutating func apply(_ event: FleetEvent, now: Duration) -> [DispatchEvent] {
        recording { engine in
            switch event {
            case .appeared(let taxi, let zone, _):
                engine.state.taxis[taxi, default: TaxiRecord()].staleSince = nil
                engine.moveNow(taxi, to: zone, now: now)
            case .changedZone(let taxi, _, let zone, _):
                engine.taxiSeen(taxi, in: zone, now: now)
            case .wentStale(let taxi, _):
                guard let record = engine.state.taxis[taxi], record.staleSince == nil else { return }
                engine.state.taxis.modify(taxi) { $0.staleSince = now }
                engine.reconcileQueue(of: taxi, now: now)
            case .cameBack(let taxi, let zone, _):
                engine.cameBack(taxi, in: zone, now: now)
            }
        }
    }

    private mutating func taxiSeen(_ taxi: TaxiID, in zone: ZoneID?, now: Duration) {
        guard let record = state.taxis[taxi] else { return moveNow(taxi, to: zone, now: now) }
        guard record.zone != zone else {
            state.taxis.modify(taxi) { $0.pendingZone = nil }
            return
        }
        guard rules.zoneDwell > .zero else { return moveNow(taxi, to: zone, now: now) }
        if record.pendingZone == nil || record.pendingZone?.zone != zone {
            state.taxis.modify(taxi) { $0.pendingZone = PendingZoneChange(zone: zone, since: now) }
        }
    }

    private mutating func cameBack(_ taxi: TaxiID, in zone: ZoneID?, now: Duration) {
        if let since = state.taxis[taxi]?.staleSince, now - since > rules.staleGrace, state.taxis[taxi]?.place != nil {
            let back = placeAtTheBack(now: now)
            state.taxis.modify(taxi) { $0.place = back }
        }
        state.taxis[taxi, default: TaxiRecord()].staleSince = nil
        moveNow(taxi, to: zone, now: now)
    }

    /// Makes `zone` the taxi's zone without a dwell, moving it between
    /// queues at the same place.
    mutating func moveNow(_ taxi: TaxiID, to zone: ZoneID?, now: Duration) {
        let from = state.taxis[taxi]?.zone
        state.taxis[taxi, default: TaxiRecord()].pendingZone = nil
        if from != zone {
            state.taxis.modify(taxi) { $0.zone = zone }
            emitted.append(.taxiChangedZone(taxi, from: from, to: zone))
        }
        reconcileQueue(of: taxi, now: now)
    }
}
