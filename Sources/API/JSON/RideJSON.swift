import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Ingest
import JSONKit
import Zones

/// An open ride request as the API shows it to its passenger, the
/// dispatcher and its driver (SPEC D3, D4, D6).
struct RideJSON: Codable, Equatable, Sendable {
    /// `R` and the engine's number, e.g. `R12`.
    var rideId: String
    /// `queued` (in the zone's passenger queue), `offered` (a driver is
    /// deciding), `assigned` (on its way), `arrived`, `aboard`.
    var status: String
    var passengerId: String
    /// The party's size, the seats its taxi must have.
    var seats: Int
    var zoneId: String
    var pickup: PointJSON
    var destination: PointJSON?
    /// The taxi code, once a driver accepted.
    var taxiId: String?
    /// The ETA told at acceptance or since, seconds.
    var etaS: Double?
    /// When the taxi arrived at the pickup (ISO 8601), while it waits there.
    var arrivedAt: String?
    /// From when its driver may report a missing client (ISO 8601), while it waits there.
    var missingClientFrom: String?
    /// The taxi's latest position, once a driver accepted and the taxi reported.
    var taxi: TaxiJSON?
    /// 1-based place in the zone's passenger queue, while queued.
    var queuePosition: Int?
    /// The time by which a queued passenger must confirm waiting (ISO 8601), while owed.
    var confirmBy: String?
    /// The expected wait for a taxi at the ride's place in its zone's queue, seconds, while queued.
    var expectedWaitS: Double?
    /// The reservation the ride serves, if any (`V` and a number).
    var reservationId: String?
    /// When no taxi can stop where the passenger asked: `pickup` is the
    /// meeting point the taxi comes to, and this the passenger's walk there.
    var meetingPoint: MeetingPointJSON?
    /// The address the pickup was understood as, in the answer to a request that named one.
    var pickupAddress: String?
    /// The address the destination was understood as, likewise.
    var destinationAddress: String?
    /// A shared ride's terms (SPEC D10); absent for a ride alone.
    var shared: SharedTermsJSON?

    /// The JSON of `view`; `now` is the wall-clock time at the view's engine time.
    init(_ view: RideView, now: Date) {
        let request = view.request
        let time = EngineTime(engine: view.engineTime, now: now)
        rideId = request.id.description
        passengerId = request.passenger.text
        seats = request.seats
        zoneId = request.zone.text
        pickup = PointJSON(request.pickup)
        destination = request.destination.map(PointJSON.init)
        reservationId = request.reservation?.description
        meetingPoint = request.walk.map { MeetingPointJSON(stop: request.pickup, walk: $0) }
        shared = request.sharedRider.map { SharedTermsJSON($0, time: time) }
        switch request.phase {
        case .waiting(let confirmBy):
            status = "queued"
            queuePosition = view.queuePosition
            self.confirmBy = confirmBy.map { FixTime.iso8601(time.wall($0)) }
        case .offered:
            status = "offered"
        case .assigned(let taxi, let eta):
            status = "assigned"
            taxiId = taxi.text
            etaS = eta.map(JSONWriter.roundedSeconds)
        case .arrived(let taxi, let since):
            status = "arrived"
            taxiId = taxi.text
            arrivedAt = FixTime.iso8601(time.wall(since))
            missingClientFrom = FixTime.iso8601(time.wall(since + view.missingClientWait))
        case .aboard(let taxi):
            status = "aboard"
            taxiId = taxi.text
        }
    }
}

extension RideJSON {
    /// The JSON of `view` with its taxi's latest position in `fleet`, once
    /// a driver accepted: what the passenger's app follows on its map.
    init(_ view: RideView, now: Date, fleet: FleetIndex) {
        self.init(view, now: now)
        if taxiId != nil, let taxi = view.request.phase.taxi {
            self.taxi = fleet.entry(for: taxi, now: now).map(TaxiJSON.init)
        }
    }
}

/// What a passenger who shares the taxi is promised (SPEC D10): the trip
/// alone, the most it may take longer, and the latest pickup.
struct SharedTermsJSON: Codable, Equatable, Sendable {
    /// The trip alone, seconds.
    var directTripS: Double
    /// The most the ride may take beyond the trip alone, seconds: other
    /// riders' stops on the way.
    var maximumAddedDelayS: Double
    /// The latest the taxi may come (ISO 8601); no rider joins who would make it later.
    var latestPickupAt: String
    /// When the passenger got in (ISO 8601), once aboard.
    var boardedAt: String?

    /// The terms of `rider`, its times shown by `time`.
    init(_ rider: SharedRider, time: EngineTime) {
        directTripS = JSONWriter.roundedSeconds(rider.directTrip)
        maximumAddedDelayS = JSONWriter.roundedSeconds(rider.longestRide - rider.directTrip)
        latestPickupAt = FixTime.iso8601(time.wall(rider.latestPickup))
        boardedAt = rider.pickedUpAt.map { FixTime.iso8601(time.wall($0)) }
    }
}

/// The dispatcher's engine time and the wall clock read together, to show
/// an engine deadline (a confirmation, an offer's expiry) as a wall-clock time.
struct EngineTime: Sendable {
    /// The engine's time at ``now``.
    let engine: Duration
    /// The wall-clock time at ``engine``.
    let now: Date

    /// The wall-clock time of engine time `time`.
    func wall(_ time: Duration) -> Date {
        now.addingTimeInterval((time - engine) / .seconds(1))
    }
}
