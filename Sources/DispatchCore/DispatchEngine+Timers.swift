import FixRecords
import Foundation

/// The engine's timers (SPEC D2–D4): it never sleeps; its owner wakes it at
/// ``nextDeadline`` with ``tick(now:wall:)``.
extension DispatchEngine {
    /// What a deadline is for; ties at one instant fire in this order.
    private enum DueTimer: Comparable {
        case zoneDwell(TaxiID)
        case offerTimeout(RideRequestID)
        case confirmationTimeout(RideRequestID)
    }

    private var timers: [(deadline: Duration, timer: DueTimer)] {
        var timers: [(deadline: Duration, timer: DueTimer)] = []
        for (taxi, record) in state.taxis {
            if let pending = record.pendingZone { timers.append((pending.since + rules.zoneDwell, .zoneDwell(taxi))) }
        }
        for (id, request) in state.requests {
            switch request.phase {
            case .offered(let offer): timers.append((offer.expiresAt, .offerTimeout(id)))
            case .waiting(let confirmBy?): timers.append((confirmBy, .confirmationTimeout(id)))
            default: break
            }
        }
        return timers
    }

    /// The earliest instant (monotonic time) at which ``tick(now:wall:)`` has
    /// something to do: an offer times out, a confirmation is overdue, or
    /// a zone change has outlasted its dwell. Nil when nothing is pending.
    public var nextDeadline: Duration? {
        timers.map(\.deadline).min()
    }

    /// Fires every timer due at `now`, earliest first: an unanswered offer
    /// goes to the next taxi and its taxi to the back of its queue; an
    /// unconfirmed queued request is cancelled; a zone change that outlasted
    /// its dwell counts. Then every reservation due by `wall` gets its taxi
    /// (``nextReservationDeadline``). Whatever these set in motion starts at `now`.
    public mutating func tick(now: Duration, wall: Date) -> [DispatchEvent] {
        recording { engine in
            // One pass over the state per round, not per timer: after a
            // restart or a burst of zone changes thousands may be due at once.
            while case let due = engine.timers.filter({ $0.deadline <= now }), !due.isEmpty {
                for timer in due.sorted(by: { ($0.deadline, $0.timer) < ($1.deadline, $1.timer) }).map(\.timer) {
                    guard let deadline = engine.deadline(of: timer), deadline <= now else { continue }
                    engine.fire(timer, now: now)
                }
            }
            engine.allocateDueReservations(now: now, wall: wall)
        }
    }

    /// When `timer` is due in the current state; nil when it is no longer
    /// pending (an earlier timer of the same tick settled it).
    private func deadline(of timer: DueTimer) -> Duration? {
        switch timer {
        case .zoneDwell(let taxi):
            return state.taxis[taxi]?.pendingZone.map { $0.since + rules.zoneDwell }
        case .offerTimeout(let id):
            guard case .offered(let offer) = state.requests[id]?.phase else { return nil }
            return offer.expiresAt
        case .confirmationTimeout(let id):
            guard case .waiting(let confirmBy?) = state.requests[id]?.phase else { return nil }
            return confirmBy
        }
    }

    private mutating func fire(_ timer: DueTimer, now: Duration) {
        switch timer {
        case .zoneDwell(let taxi):
            guard let pending = state.taxis[taxi]?.pendingZone else { return }
            moveNow(taxi, to: pending.zone, now: now)
        case .offerTimeout(let id):
            guard case .offered(let offer) = state.requests[id]?.phase else { return }
            emitted.append(.offerTimedOut(id, taxi: offer.taxi))
            passOn(id, from: offer.taxi, now: now)
        case .confirmationTimeout(let id):
            closeRequest(id)
            emitted.append(.requestCancelled(id, reason: .notConfirmed))
        }
    }
}
