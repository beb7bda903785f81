import FixRecords
import Foundation
import Zones

/// The whole state of the dispatch engine as one value: taxis, zone queues,
/// open requests and passenger queues, with the counters that number what
/// comes next. Equal snapshots mean engines that decide the same from then
/// on, which is what a restart must give back.
public struct DispatchSnapshot: Equatable, Sendable, Codable {
    /// Every taxi the engine has heard of, logged in or not.
    public internal(set) var taxis: [TaxiID: TaxiRecord] = [:]
    /// Each zone's taxi queue; a zone without waiting taxis has none.
    public internal(set) var taxiQueues: [ZoneID: ZoneQueue] = [:]
    /// The open requests: not cancelled, ride not ended.
    public internal(set) var requests: [RideRequestID: RideRequest] = [:]
    /// Each zone's waiting requests, oldest first; a zone without any has none.
    public internal(set) var passengerQueues: [ZoneID: [RideRequestID]] = [:]
    /// Each passenger's open request.
    public internal(set) var openRequestOfPassenger: [PassengerID: RideRequestID] = [:]
    /// The reservations not yet cancelled or ridden (D5).
    public internal(set) var reservations: [ReservationID: Reservation] = [:]
    /// When taxis last joined each zone's queue (monotonic time, the latest
    /// few), for the rate at which taxis become free there (D9).
    public internal(set) var recentArrivals: [ZoneID: [Duration]] = [:]
    /// What each zone's latest accepted offers showed about the wait there,
    /// against what the passengers were told (D9).
    public internal(set) var waitHistory: [ZoneID: ZoneWaitHistory] = [:]
    /// The same over every zone: what a zone with few rides of its own is
    /// expected to show, until its own history says otherwise.
    public internal(set) var cityWaitHistory = ZoneWaitHistory()
    /// The number the next request gets.
    public internal(set) var nextRequestNumber = 1
    /// The number the next reservation gets.
    public internal(set) var nextReservationNumber = 1
    /// The sequence number the next queue place gets.
    public internal(set) var nextPlaceSequence = 0

    /// An empty state: no taxi, no request.
    public init() {}

    /// The taxis waiting in `zone`'s queue, head first.
    public func taxiQueue(in zone: ZoneID) -> [TaxiID] {
        taxiQueues[zone]?.taxis ?? []
    }

    /// The requests waiting in `zone`'s passenger queue, oldest first.
    public func passengerQueue(in zone: ZoneID) -> [RideRequestID] {
        passengerQueues[zone] ?? []
    }

    /// The request `taxi` holds an offer for or is on, if any.
    public func request(heldBy taxi: TaxiID) -> RideRequest? {
        switch state(of: taxi) {
        case .offered(let id), .busy(let id): requests[id]
        case .offDuty, .unavailable, .available: nil
        }
    }

    /// The reservations `isIncluded` keeps, soonest pickup first (ties in booking order).
    public func reservations(where isIncluded: (Reservation) -> Bool) -> [Reservation] {
        reservations.values.filter(isIncluded).sorted { ($0.pickupAt, $0.id) < ($1.pickupAt, $1.id) }
    }

    /// The driver's state of `taxi` (off duty when never heard of).
    public func state(of taxi: TaxiID) -> DriverState {
        taxis[taxi]?.state ?? .offDuty
    }
}

extension DispatchSnapshot {
    /// Reads a snapshot, also one written before ``waitHistory`` and
    /// ``cityWaitHistory`` were kept (the dispatch log's snapshots outlive
    /// upgrades): they start empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        taxis = try container.decode([TaxiID: TaxiRecord].self, forKey: .taxis)
        taxiQueues = try container.decode([ZoneID: ZoneQueue].self, forKey: .taxiQueues)
        requests = try container.decode([RideRequestID: RideRequest].self, forKey: .requests)
        passengerQueues = try container.decode([ZoneID: [RideRequestID]].self, forKey: .passengerQueues)
        openRequestOfPassenger = try container.decode([PassengerID: RideRequestID].self, forKey: .openRequestOfPassenger)
        reservations = try container.decode([ReservationID: Reservation].self, forKey: .reservations)
        recentArrivals = try container.decode([ZoneID: [Duration]].self, forKey: .recentArrivals)
        waitHistory = try container.decodeIfPresent([ZoneID: ZoneWaitHistory].self, forKey: .waitHistory) ?? [:]
        cityWaitHistory = try container.decodeIfPresent(ZoneWaitHistory.self, forKey: .cityWaitHistory) ?? ZoneWaitHistory()
        nextRequestNumber = try container.decode(Int.self, forKey: .nextRequestNumber)
        nextReservationNumber = try container.decode(Int.self, forKey: .nextReservationNumber)
        nextPlaceSequence = try container.decode(Int.self, forKey: .nextPlaceSequence)
    }
}
