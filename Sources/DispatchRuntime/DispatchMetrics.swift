import CoreMetrics
import DispatchCore
import Synchronization
import Zones

/// The dispatch engine's state in `/metrics` (SPEC D2–D5, I7): zone queue
/// lengths, open requests, pending offers, waiting passengers and
/// reservations, read from the engine's snapshot once a second, and the
/// dispatch log's commits as they happen.
public final class DispatchMetrics: Sendable {
    private let factory: any MetricsFactory
    private let queuedTaxis: Gauge
    private let openRequests: Gauge
    private let pendingOffers: Gauge
    private let waitingPassengers: Gauge
    private let reservations: Gauge
    private let commitDuration: CoreMetrics.Timer
    private let entriesWritten: Counter
    private let zonesShown = Mutex<Set<ZoneID>>([])

    /// Metrics made by `factory` (the service's Prometheus registry).
    public init(factory: any MetricsFactory) {
        self.factory = factory
        queuedTaxis = Gauge(label: "mytaxi_dispatch_queued_taxis", factory: factory)
        openRequests = Gauge(label: "mytaxi_dispatch_open_requests", factory: factory)
        pendingOffers = Gauge(label: "mytaxi_dispatch_pending_offers", factory: factory)
        waitingPassengers = Gauge(label: "mytaxi_dispatch_waiting_passengers", factory: factory)
        reservations = Gauge(label: "mytaxi_dispatch_reservations", factory: factory)
        commitDuration = CoreMetrics.Timer(label: "mytaxi_dispatch_log_commit_seconds", factory: factory)
        entriesWritten = Counter(label: "mytaxi_dispatch_log_writes_total", factory: factory)
    }

    /// Shows `snapshot`: totals, and each zone's queue length
    /// (`mytaxi_dispatch_queue_length{zone}`; a zone whose queue emptied shows 0).
    public func show(_ snapshot: DispatchSnapshot) {
        queuedTaxis.record(snapshot.taxiQueues.values.reduce(0) { $0 + $1.entries.count })
        openRequests.record(snapshot.requests.count)
        pendingOffers.record(snapshot.requests.values.filter { if case .offered = $0.phase { true } else { false } }.count)
        waitingPassengers.record(snapshot.passengerQueues.values.reduce(0) { $0 + $1.count })
        reservations.record(snapshot.reservations.count)
        let zones = zonesShown.withLock { shown in
            defer { shown.formUnion(snapshot.taxiQueues.keys) }
            return shown.union(snapshot.taxiQueues.keys)
        }
        for zone in zones {
            Gauge(label: "mytaxi_dispatch_queue_length", dimensions: [("zone", zone.text)], factory: factory)
                .record(snapshot.taxiQueue(in: zone).count)
        }
    }

    /// The open requests `events` name, from `state` (the engine's state
    /// right after them): what ``count(_:requests:at:)`` needs, taken
    /// without holding on to the whole state.
    public static func requests(namedIn events: [DispatchEvent], of state: DispatchSnapshot) -> [RideRequestID: RideRequest] {
        var named: [RideRequestID: RideRequest] = [:]
        for event in events {
            switch event {
            case .offerMade(let id, _, _), .offerRefused(let id, _), .offerTimedOut(let id, _), .taxiArrived(let id, _):
                named[id] = state.requests[id]
            default:
                continue
            }
        }
        return named
    }

    /// Counts per zone what `events` decided (SPEC D9, statistics per zone;
    /// Prometheus gives them per hour): requests, offers, refusals (refused
    /// or timed out), and the wait from request to the taxi at the pickup.
    /// `requests` are the requests they name (``requests(namedIn:of:)``).
    public func count(_ events: [DispatchEvent], requests: [RideRequestID: RideRequest], at now: Duration) {
        for event in events {
            switch event {
            case .requestOpened(_, _, let zone):
                perZone("mytaxi_dispatch_requests_total", zone).increment()
            case .offerMade(let id, _, _):
                if let zone = requests[id]?.zone { perZone("mytaxi_dispatch_offers_total", zone).increment() }
            case .offerRefused(let id, _), .offerTimedOut(let id, _):
                if let zone = requests[id]?.zone { perZone("mytaxi_dispatch_refusals_total", zone).increment() }
            case .taxiArrived(let id, _):
                guard let request = requests[id] else { continue }
                let wait = now - request.openedAt
                CoreMetrics.Timer(label: "mytaxi_dispatch_wait_seconds", dimensions: [("zone", request.zone.text)], factory: factory)
                    .recordNanoseconds(Int64(wait / .nanoseconds(1)))
            default:
                continue
            }
        }
    }

    private func perZone(_ label: String, _ zone: ZoneID) -> Counter {
        Counter(label: label, dimensions: [("zone", zone.text)], factory: factory)
    }

    /// Records one commit of the dispatch log: `writes` entries and snapshots in `duration`.
    public func committed(writes: Int, duration: Duration) {
        commitDuration.recordNanoseconds(Int64(duration / .nanoseconds(1)))
        entriesWritten.increment(by: writes)
    }
}
