import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import Ingest
import Zones

/// A driver's taxi as its app sees it (SPEC D1, D2, D3, D6): the state,
/// the zone and place in its queue, the offer to answer, the ride it is on.
struct DriverJSON: Codable, Equatable, Sendable {
    var taxiId: String
    /// `offDuty`, `unavailable`, `available`, `offered`, `busy`.
    var state: String
    /// The zone that counts for its queue; null when unknown or outside the service area.
    var zoneId: String?
    /// True while the taxi is silent (no fix for the stale limit): no offer reaches it.
    var stale: Bool
    /// 1-based place in its zone's queue, while it waits there.
    var queuePosition: Int?
    /// The offer waiting for an answer.
    var offer: OfferJSON?
    /// The ride the taxi is on (accepted, arrived, passenger aboard).
    var ride: RideJSON?
    /// Where the taxi's terminal last put it; null before its first fix.
    var position: TaxiJSON?
    /// On a shared ride, the stops still to make, in order (SPEC D10).
    var itinerary: [ItineraryStopJSON]?

    /// The JSON of `view` for `taxi`; `now` is the wall-clock time at the view's engine time.
    init(_ taxi: TaxiID, view: DriverView, now: Date) {
        taxiId = taxi.text
        zoneId = view.record?.zone?.text
        stale = view.record?.staleSince != nil
        queuePosition = view.queuePosition
        state = DriverStateText.text(view.record?.state ?? .offDuty)
        if !view.itinerary.isEmpty {
            let time = EngineTime(engine: view.engineTime, now: now)
            itinerary = view.itinerary.map {
                ItineraryStopJSON(stop: $0.stop, request: $0.request, time: time, missingClientWait: view.missingClientWait)
            }
        }
        guard let request = view.ride else { return }
        if case .offered(let offer) = request.phase {
            self.offer = OfferJSON(
                rideId: request.id.description, zoneId: request.zone.text, pickup: PointJSON(request.pickup),
                destination: request.destination.map(PointJSON.init),
                offeredAt: FixTime.iso8601(EngineTime(engine: view.engineTime, now: now).wall(offer.madeAt)),
                expiresAt: FixTime.iso8601(EngineTime(engine: view.engineTime, now: now).wall(offer.expiresAt)))
        } else {
            ride = view.rideView.map { RideJSON($0, now: now) }
        }
    }
}

/// One stop of a shared ride for its driver (SPEC D10): whose, getting in
/// or out, where, and the rider's party and where the ride stands.
struct ItineraryStopJSON: Codable, Equatable, Sendable {
    var rideId: String
    /// `pickup` or `dropoff`.
    var stop: String
    var point: PointJSON
    var passengerId: String
    var seats: Int
    /// The ride's status: `assigned`, `arrived` or `aboard`.
    var status: String
    /// When the taxi arrived at this pickup (ISO 8601), while it waits there.
    var arrivedAt: String?
    /// From when a missing client may be reported at this pickup (ISO 8601), while the taxi waits there.
    var missingClientFrom: String?

    /// `stop` of `request`, its times shown by `time`; a missing client may
    /// be reported `missingClientWait` after arriving.
    init(stop: ItineraryStop, request: RideRequest, time: EngineTime, missingClientWait: Duration) {
        rideId = request.id.description
        self.stop = stop.kind.rawValue
        point = PointJSON(request.place(of: stop.kind) ?? request.pickup)
        passengerId = request.passenger.text
        seats = request.seats
        switch request.phase {
        case .arrived(_, let since):
            status = "arrived"
            if stop.kind == .pickup {
                arrivedAt = FixTime.iso8601(time.wall(since))
                missingClientFrom = FixTime.iso8601(time.wall(since + missingClientWait))
            }
        case .aboard: status = "aboard"
        default: status = "assigned"
        }
    }
}

/// A ride offered to a driver, to accept or refuse before `expiresAt` (SPEC D3).
struct OfferJSON: Codable, Equatable, Sendable {
    var rideId: String
    var zoneId: String
    var pickup: PointJSON
    var destination: PointJSON?
    /// ISO 8601: when the offer was made, so that an app that looked late
    /// (after a lost push) shows how long is left of the driver's time.
    var offeredAt: String
    /// ISO 8601: after it the offer goes to the next taxi.
    var expiresAt: String
}
