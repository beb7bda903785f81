import DispatchCore
import FixRecords
import Foundation
import Storage
import Zones

/// What the statistics count of each command's decisions and of each
/// sample of the queues (SPEC D9, A2): the figures written with the log
/// entry that decided them, so that they are exactly the log's and survive
/// every restart.
enum StatisticsCounts {
    /// The counts `events` make, decided at `now` (engine time) and `wall`;
    /// `snapshot` is the state after them and `closed` what they closed
    /// (``DispatchEngine/closedByLastCall``), where a request's zone, times
    /// and tried taxis are found.
    static func counts(
        of events: [DispatchEvent], snapshot: DispatchSnapshot, closed: (requests: [RideRequest], reservations: [Reservation]),
        now: Duration, wall: Date
    ) -> [HourlyCount] {
        var counts: [HourlyCount] = []
        func request(_ id: RideRequestID) -> RideRequest? {
            snapshot.requests[id] ?? closed.requests.first { $0.id == id }
        }
        func add(_ measure: String, zoneOf id: RideRequestID, driverOf taxi: TaxiID? = nil) {
            if let zone = request(id)?.zone {
                counts.append(HourlyCount(subject: StatisticsSubject.zone(zone), hour: wall, measure: measure, count: 1))
            }
            if let driver = taxi.flatMap({ snapshot.taxis[$0]?.driver }) {
                counts.append(HourlyCount(subject: StatisticsSubject.driver(driver), hour: wall, measure: measure, count: 1))
            }
        }
        func addSeconds(_ histogram: WaitHistogram, since opened: RideRequest?) {
            guard let opened, opened.reservation == nil else { return }
            counts.append(HourlyCount(
                subject: StatisticsSubject.zone(opened.zone), hour: wall, measure: histogram.measure(for: now - opened.openedAt), count: 1))
        }
        for event in events {
            switch event {
            case .requestOpened(let id, _, _):
                add(StatisticsMeasure.requests.rawValue, zoneOf: id)
                if request(id)?.isShared == true { add(StatisticsMeasure.sharedRequests.rawValue, zoneOf: id) }
            case .riderJoined(let id, let taxi, _): add(StatisticsMeasure.sharedJoined.rawValue, zoneOf: id, driverOf: taxi)
            case .reservationAllocated(_, _, let ride): add(StatisticsMeasure.bookings.rawValue, zoneOf: ride)
            case .offerMade(let id, let taxi, _):
                add(StatisticsMeasure.offers.rawValue, zoneOf: id, driverOf: taxi)
                if let offered = request(id), offered.triedTaxis.count == 1 { addSeconds(.timeToOffer, since: offered) }
            case .offerAccepted(let id, let taxi, _): add(StatisticsMeasure.accepted.rawValue, zoneOf: id, driverOf: taxi)
            case .offerRefused(let id, let taxi): add(StatisticsMeasure.refused.rawValue, zoneOf: id, driverOf: taxi)
            case .offerTimedOut(let id, let taxi): add(StatisticsMeasure.timedOut.rawValue, zoneOf: id, driverOf: taxi)
            case .passengerQueued(let id, _, _, _): add(StatisticsMeasure.queued.rawValue, zoneOf: id)
            case .taxiArrived(let id, _): addSeconds(.wait, since: request(id))
            case .rideCompleted(let id, let taxi): add(StatisticsMeasure.served.rawValue, zoneOf: id, driverOf: taxi)
            case .clientMissing(let id, let taxi): add(StatisticsMeasure.clientMissing.rawValue, zoneOf: id, driverOf: taxi)
            case .requestCancelled(let id, let reason):
                let measure: StatisticsMeasure = switch reason {
                case .byPassenger: .cancelledByPassenger
                case .notConfirmed: .cancelledNotConfirmed
                case .outsideZones: .cancelledOutsideZones
                }
                add(measure.rawValue, zoneOf: id)
            default: break
            }
        }
        return counts
    }

    /// One sample of the queues, taken at `wall` and standing for the
    /// `interval` since the last: each zone's free taxis and waiting
    /// passengers, and each driver's time on duty (per taxi) and available.
    static func sample(of snapshot: DispatchSnapshot, at wall: Date, standingFor interval: Duration) -> [HourlyCount] {
        let seconds = Int64((interval / .seconds(1)).rounded())
        var counts = [HourlyCount(subject: StatisticsSubject.city, hour: wall, measure: StatisticsMeasure.samples.rawValue, count: 1)]
        for (zone, queue) in snapshot.taxiQueues where !queue.isEmpty {
            counts.append(HourlyCount(
                subject: StatisticsSubject.zone(zone), hour: wall, measure: StatisticsMeasure.taxisAvailable.rawValue,
                count: Int64(queue.entries.count)))
        }
        for (zone, waiting) in snapshot.passengerQueues where !waiting.isEmpty {
            counts.append(HourlyCount(
                subject: StatisticsSubject.zone(zone), hour: wall, measure: StatisticsMeasure.passengersQueued.rawValue,
                count: Int64(waiting.count)))
        }
        for (taxi, record) in snapshot.taxis where record.state != .offDuty {
            guard let driver = record.driver else { continue }
            let subject = StatisticsSubject.driver(driver)
            counts.append(HourlyCount(subject: subject, hour: wall, measure: OnDutyMeasure.name(taxi), count: seconds))
            if record.state == .available {
                counts.append(HourlyCount(subject: subject, hour: wall, measure: StatisticsMeasure.availableSeconds.rawValue, count: seconds))
            }
        }
        return counts
    }
}
