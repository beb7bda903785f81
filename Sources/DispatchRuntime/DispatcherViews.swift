import DispatchCore
import FixRecords
import Foundation
import Zones

/// An open ride as the dispatcher holds it now, for the API to show.
public struct RideView: Sendable, Equatable {
    /// The request.
    public let request: RideRequest
    /// Its 1-based place in its zone's passenger queue, while it waits there.
    public let queuePosition: Int?
    /// The engine's time when the view was taken, to turn the request's deadlines into wall-clock times.
    public let engineTime: Duration
    /// How long after arriving its driver may report a missing client (the rules').
    public let missingClientWait: Duration

    /// The view of `request` at `engineTime` under a missing-client wait of `missingClientWait`.
    public init(request: RideRequest, queuePosition: Int?, engineTime: Duration, missingClientWait: Duration) {
        self.request = request
        self.queuePosition = queuePosition
        self.engineTime = engineTime
        self.missingClientWait = missingClientWait
    }
}

/// A driver's taxi as the dispatcher holds it now (SPEC D1, D2).
public struct DriverView: Sendable, Equatable {
    /// The taxi's record (state, zone, staleness); nil when the engine never heard of it.
    public let record: TaxiRecord?
    /// The request it holds an offer for or is on.
    public let ride: RideRequest?
    /// Its 1-based place in its zone's queue, while it waits there.
    public let queuePosition: Int?
    /// The engine's time when the view was taken.
    public let engineTime: Duration
    /// How long after arriving the driver may report a missing client (the rules').
    public let missingClientWait: Duration
    /// On a shared ride, its stops still to make, each with its rider's request (SPEC D10); empty otherwise.
    public let itinerary: [(stop: ItineraryStop, request: RideRequest)]

    /// Two views of the same taxi, ride, queue place, time and itinerary
    /// (written out, since the itinerary's pairs are tuples).
    public static func == (lhs: DriverView, rhs: DriverView) -> Bool {
        (lhs.record, lhs.ride, lhs.queuePosition, lhs.engineTime, lhs.missingClientWait)
            == (rhs.record, rhs.ride, rhs.queuePosition, rhs.engineTime, rhs.missingClientWait)
            && lhs.itinerary.map(\.stop) == rhs.itinerary.map(\.stop) && lhs.itinerary.map(\.request) == rhs.itinerary.map(\.request)
    }

    /// The view of the ride the taxi holds, if any.
    public var rideView: RideView? {
        ride.map { RideView(request: $0, queuePosition: nil, engineTime: engineTime, missingClientWait: missingClientWait) }
    }
}

/// A zone's two queues now (SPEC D2, D4).
public struct ZoneQueuesView: Sendable, Equatable {
    /// The free taxis, head first, each with its place.
    public let taxis: [ZoneQueue.Entry]
    /// The waiting requests, oldest first.
    public let passengers: [RideRequest]
    /// The engine's time when the view was taken.
    public let engineTime: Duration
}

/// Small reads of the dispatch state for the API: each takes what it
/// shows inside the dispatcher, so that no caller holds the whole state
/// while the next command changes it (which would copy all of it).
extension Dispatcher {
    /// Open ride `id`, nil when it is not open.
    public func ride(_ id: RideRequestID) -> RideView? {
        let state = snapshot
        guard let request = state.requests[id] else { return nil }
        let position = state.passengerQueue(in: request.zone).firstIndex(of: id).map { $0 + 1 }
        return RideView(request: request, queuePosition: position, engineTime: engineTime, missingClientWait: rules.missingClientWait)
    }

    /// Every open ride (waiting, offered, on its way, at the pickup, aboard),
    /// or those of `zone`, oldest first: the dispatchers' list of requests.
    public func openRides(in zone: ZoneID? = nil) -> [RideView] {
        let state = snapshot
        return state.requests.values.filter { zone == nil || $0.zone == zone }.sorted { $0.id < $1.id }.map { request in
            let position = state.passengerQueue(in: request.zone).firstIndex(of: request.id).map { $0 + 1 }
            return RideView(request: request, queuePosition: position, engineTime: engineTime, missingClientWait: rules.missingClientWait)
        }
    }

    /// The open ride of `passenger`, nil when none.
    public func openRide(of passenger: PassengerID) -> RideView? {
        snapshot.openRequestOfPassenger[passenger].flatMap(ride)
    }

    /// The taxi of a driver, with the ride it holds.
    public func driver(_ taxi: TaxiID) -> DriverView {
        let state = snapshot
        let record = state.taxis[taxi]
        let position = record?.queuedIn.flatMap { state.taxiQueues[$0]?.position(of: taxi) }
        return DriverView(
            record: record, ride: state.request(heldBy: taxi), queuePosition: position, engineTime: engineTime,
            missingClientWait: rules.missingClientWait,
            itinerary: (record?.itinerary ?? []).compactMap { stop in state.requests[stop.ride].map { (stop, $0) } })
    }

    /// The taxi and passenger queues of `zone`.
    public func queues(in zone: ZoneID) -> ZoneQueuesView {
        let state = snapshot
        return ZoneQueuesView(
            taxis: state.taxiQueues[zone]?.entries ?? [],
            passengers: state.passengerQueue(in: zone).compactMap { state.requests[$0] }, engineTime: engineTime)
    }

    /// The taxi and passenger queues of every zone that has either, for the dispatchers' board.
    public func allQueues() -> [ZoneID: ZoneQueuesView] {
        let state = snapshot
        var views: [ZoneID: ZoneQueuesView] = [:]
        for zone in Set(state.taxiQueues.keys).union(state.passengerQueues.keys) {
            views[zone] = ZoneQueuesView(
                taxis: state.taxiQueues[zone]?.entries ?? [],
                passengers: state.passengerQueue(in: zone).compactMap { state.requests[$0] }, engineTime: engineTime)
        }
        return views
    }

    /// Every taxi the engine knows, by id.
    public func taxiRecords() -> [TaxiID: TaxiRecord] {
        snapshot.taxis
    }

    /// The open reservations of `passenger`, or every one when nil, soonest pickup first.
    public func reservations(of passenger: PassengerID?) -> [Reservation] {
        snapshot.reservations(where: { passenger == nil || $0.passenger == passenger })
    }

    /// The whole state, the last log entry it includes, and whether this
    /// node decides, once every entry written so far is durable.
    public func durableState() async -> (snapshot: DispatchSnapshot, logSequence: Int64, role: DispatchRole) {
        await waitForWrites()
        return (snapshot, logSequence, role)
    }

    /// Open reservation `id`, nil when it is not open.
    public func reservation(_ id: ReservationID) -> Reservation? {
        snapshot.reservations[id]
    }
}
