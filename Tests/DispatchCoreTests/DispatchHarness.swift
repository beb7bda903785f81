import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Testing
import Zones

/// An engine and the manual clock its tests move: every call passes the
/// clock's monotonic time, and `advance` moves the clock and ticks.
struct DispatchHarness {
    static let pickup = Coordinate(longitude: -73.9855, latitude: 40.7580)

    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
    var engine: DispatchEngine

    init(rules: DispatchRules = DispatchRules()) {
        engine = DispatchEngine(rules: rules)
    }

    var now: Duration { clock.uptime }
    var snapshot: DispatchSnapshot { engine.snapshot }

    /// Moves the clock by `seconds` and fires what is due.
    @discardableResult
    mutating func advance(_ seconds: Int) -> [DispatchEvent] {
        clock.advance(by: .seconds(seconds))
        return engine.tick(now: now, wall: clock.now)
    }

    /// A taxi the fleet has seen in `zone`, logged in and available.
    @discardableResult
    mutating func availableTaxi(_ taxi: TaxiID, in zone: ZoneID, seats: Int? = nil) throws -> [DispatchEvent] {
        _ = engine.apply(.appeared(taxi, zone: zone, at: clock.now), now: now)
        _ = engine.login(taxi, seats: seats, now: now)
        return try engine.setAvailable(taxi, now: now)
    }

    /// Available taxis in `zone`, one second apart, in the order given.
    mutating func availableTaxis(_ taxis: [TaxiID], in zone: ZoneID) throws {
        for taxi in taxis {
            try availableTaxi(taxi, in: zone)
            clock.advance(by: .seconds(1))
        }
    }

    @discardableResult
    mutating func fleet(_ event: FleetEvent) -> [DispatchEvent] {
        engine.apply(event, now: now)
    }

    /// A request by `passenger` with its pickup in `zone`; returns its id
    /// (nil when refused) and the events.
    mutating func request(_ passenger: PassengerID, in zone: ZoneID?, seats: Int? = nil) -> (id: RideRequestID?, events: [DispatchEvent]) {
        let events = engine.request(passenger: passenger, pickup: Self.pickup, zone: zone, seats: seats, now: now)
        let id = events.lazy.compactMap { event -> RideRequestID? in
            if case .requestOpened(let id, _, _) = event { return id }
            return nil
        }.first
        return (id, events)
    }

    /// A shared request by `passenger` in `zone` (SPEC D10), for a trip
    /// alone of `direct` seconds, joining `join` when given.
    mutating func sharedRequest(
        _ passenger: PassengerID, in zone: ZoneID, seats: Int? = nil, direct: Int = 600, join: RideSharing.Join? = nil
    ) -> (id: RideRequestID?, events: [DispatchEvent]) {
        let events = engine.request(
            passenger: passenger, pickup: Self.pickup, zone: zone, destination: Self.pickup, seats: seats,
            sharing: RideSharing(directTrip: .seconds(direct), join: join), now: now)
        let id = events.lazy.compactMap { event -> RideRequestID? in
            if case .requestOpened(let id, _, _) = event { return id }
            return nil
        }.first
        return (id, events)
    }

    func queue(_ zone: ZoneID) -> [TaxiID] { snapshot.taxiQueue(in: zone) }
    func state(_ taxi: TaxiID) -> DriverState { snapshot.state(of: taxi) }
}

extension Array where Element == DispatchEvent {
    /// The taxis offered a request in these events, in order.
    var offeredTaxis: [TaxiID] {
        compactMap { event in
            if case .offerMade(_, let taxi, _) = event { return taxi }
            return nil
        }
    }
}
