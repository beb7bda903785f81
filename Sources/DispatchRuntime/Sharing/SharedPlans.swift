import DispatchCore
import FixRecords

/// When each taxi on a shared ride is expected at each of its stops (SPEC
/// D10), engine time: as planned when the ride started or a rider joined,
/// then moved with the taxi's live ETA to its next stop. What the matcher
/// takes as the legs of an itinerary, and what each waiting rider is told.
/// Kept by the dispatcher in memory: a restart plans again from the router.
public struct SharedPlans: Sendable {
    /// One taxi's stops and when it is expected at each.
    public struct Plan: Sendable, Equatable {
        /// The stops, as the engine holds them.
        public var stops: [ItineraryStop]
        /// When the taxi is expected at each, in order.
        public var arrivals: [Duration]
    }

    private var plans: [TaxiID: Plan] = [:]

    /// No plan yet.
    public init() {}

    /// `taxi`'s plan, nil when there is none.
    public func plan(of taxi: TaxiID) -> Plan? {
        plans[taxi]
    }

    /// `taxi`'s arrivals at `stops`, nil unless the plan is of exactly those stops.
    public func arrivals(of taxi: TaxiID, at stops: [ItineraryStop]) -> [Duration]? {
        guard let plan = plans[taxi], plan.stops == stops else { return nil }
        return plan.arrivals
    }

    /// Plans `taxi`'s `stops` at `arrivals`.
    public mutating func plan(_ taxi: TaxiID, stops: [ItineraryStop], arrivals: [Duration]) {
        guard stops.count == arrivals.count, !stops.isEmpty else {
            plans[taxi] = nil
            return
        }
        plans[taxi] = Plan(stops: stops, arrivals: arrivals)
    }

    /// Follows the itineraries `events` changed: a stop made or dropped
    /// leaves the others' times as they were; a stop the plan does not know
    /// (a rider joining) drops the plan, for the caller to plan again.
    public mutating func follow(_ events: [DispatchEvent]) {
        for case .itineraryChanged(let taxi, let stops) in events {
            guard let known = plans[taxi] else { continue }
            let indices = stops.map { known.stops.firstIndex(of: $0) }
            if indices.contains(nil) {
                plans[taxi] = nil
            } else {
                plan(taxi, stops: stops, arrivals: indices.compactMap { $0.map { known.arrivals[$0] } })
            }
        }
    }

    /// `taxi` is now expected at its next stop at `firstArrival`: every later
    /// stop moves by as much.
    public mutating func move(_ taxi: TaxiID, firstArrival: Duration) {
        guard let plan = plans[taxi], let first = plan.arrivals.first else { return }
        let shift = firstArrival - first
        plans[taxi]?.arrivals = plan.arrivals.map { $0 + shift }
    }
}
