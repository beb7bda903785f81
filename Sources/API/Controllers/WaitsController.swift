import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Hummingbird
import Ingest
import JSONKit
import Routing
import ServiceClock
import Storage
import Zones

/// `/v1/waits` and `/v1/reachability`, for every logged-in role and
/// partner apps (SPEC D9, R6): the expected wait for a taxi at a point, and
/// whether someone calling a taxi at a time reaches a place by a deadline.
struct WaitsController: Sendable {
    let dispatcher: Dispatcher
    let zones: ActiveZones
    let router: RoadRouter
    /// Where a taxi stops for a pickup it cannot reach exactly.
    let meetingPoints: MeetingPoints
    /// Each zone's busy hours, from the statistics.
    let busyHours: BusyHours
    let clock: any ServiceClock

    func addRoutes(waits: RouterGroup<APIRequestContext>, reachability: RouterGroup<APIRequestContext>) {
        waits.get(use: wait)
        reachability.get(use: reach)
    }

    /// `GET /v1/waits?lon=&lat=[&to=LON,LAT&seats=N]` → `{"zoneId", "expectedWaitS", "meetingPoint"?, "shared"?}`:
    /// the time until a taxi can be offered a request there plus that
    /// taxi's drive (absent when the zone has neither a free taxi nor a
    /// recent arrival rate); where no taxi can stop there, the meeting point
    /// a request would be served at, with the walk to it, and the wait
    /// there (SPEC R5). With a destination `to`, what a shared ride there
    /// would be told now (D10): when its taxi would come, whether it would
    /// join a shared ride, the most its trip may take beyond the trip alone.
    /// 404 outside the service area.
    @Sendable func wait(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let point = try request.queryPoint()
        _ = try zoneOf(point)
        let (pickup, walk) = try meetingPoints.pickup(for: point, depart: clock.now)
        let zone = try zoneOf(pickup)
        let wait = await dispatcher.expectedWait(at: pickup, in: zone.id)
        let shorter = await ShorterWaits(dispatcher: dispatcher, zones: zones, meetingPoints: meetingPoints)
            .suggestions(near: point, outside: zone.id, waitHere: wait, depart: clock.now)
        var shorterWaits: [ShorterWaitJSON] = []
        for suggestion in shorter {
            shorterWaits.append(ShorterWaitJSON(suggestion, busyHours: await busyHours.busiest(in: suggestion.zone.id)))
        }
        var shared: SharedQuoteJSON?
        if request.uri.queryParameters.get("to") != nil {
            let destination = try request.queryPoint("to")
            let seats = try request.queryCount("seats", in: 1...DeviceRegistry.maximumSeats, default: 1)
            let direct = try router.directTrip(from: pickup, to: destination, depart: clock.now)
            shared = SharedQuoteJSON(
                await dispatcher.sharedQuote(from: pickup, in: zone.id, to: destination, seats: seats, directTrip: direct), directTrip: direct)
        }
        return try JSONResponse.ok(WaitJSON(
            zoneId: zone.id.text, name: zone.name, expectedWaitS: wait.map(JSONWriter.roundedSeconds),
            meetingPoint: walk.map { MeetingPointJSON(stop: pickup, walk: $0) }, shorterWaits: shorterWaits,
            busyHours: await busyHours.busiest(in: zone.id), shared: shared))
    }

    /// `GET /v1/reachability?from=LON,LAT&to=LON,LAT&leave=ISO&arriveBy=ISO`:
    /// calling a taxi at `from` at `leave` (default now), the expected wait
    /// there plus the drive to `to` at that hour's speeds, and whether it
    /// arrives by `arriveBy`, with a warning when not; the latest time to
    /// call (`leaveBy`), the times also in the city's local time, and where
    /// the wait comes from, with a warning when the call is far ahead.
    @Sendable func reach(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        let from = try request.queryPoint("from")
        let to = try request.queryPoint("to")
        let leave = try request.queryTime("leave", default: clock.now)
        guard request.uri.queryParameters.get("arriveBy") != nil else {
            throw Problem.badRequest("query parameter 'arriveBy' is required: the ISO 8601 time to be at 'to' by")
        }
        let arriveBy = try request.queryTime("arriveBy", default: leave)
        let zone = try zoneOf(from)
        let wait = await dispatcher.expectedWait(at: from, in: zone.id)
        let answer: Reachability
        do {
            answer = try router.reachability(
                from: from, to: to, depart: leave, deadline: arriveBy, expectedWait: wait.map { $0 / .seconds(1) } ?? 0)
        } catch {
            throw Problem.unprocessable("a point cannot be placed on the road map: \(error)")
        }
        guard answer.driveSeconds.isFinite else { throw Problem.unprocessable("no road route leads from \(from) to \(to)") }
        let waitSeconds = wait.map { $0 / .seconds(1) } ?? 0
        let leaveBy = latestCall(from: from, to: to, arriveBy: arriveBy, waitSeconds: waitSeconds, first: answer)
        let local = LocalTime(timeZone: router.timeZone)
        var warnings: [String] = []
        if wait == nil { warnings.append("no taxi is free or recently freed in zone \(zone.id): the wait is unknown and counted as none") }
        if wait != nil, leave.timeIntervalSince(clock.now) > Self.liveWaitHorizon {
            warnings.append("the wait is zone \(zone.id)'s wait now (its free taxis and recent arrivals), not a forecast for "
                + "\(local.text(leave)): far ahead, take it as a rough guide")
        }
        if !answer.reachable { warnings.append("late by \(Int((-answer.marginSeconds).rounded())) s: call earlier or choose another way") }
        return try JSONResponse.ok(ReachabilityJSON(
            reachable: answer.reachable, arrival: FixTime.iso8601(answer.arrival), marginS: JSONWriter.roundedTenths(answer.marginSeconds),
            expectedWaitS: wait.map(JSONWriter.roundedSeconds), driveS: JSONWriter.roundedTenths(answer.driveSeconds), zoneId: zone.id.text,
            arrivalLocal: local.text(answer.arrival), leaveBy: FixTime.iso8601(leaveBy), leaveByLocal: local.text(leaveBy),
            timeZone: router.timeZone.identifier, waitSource: wait == nil ? "unknown" : "live", warnings: warnings))
    }

    /// How far ahead a call may be for the zone's wait now to speak for it
    /// without a warning.
    static let liveWaitHorizon: TimeInterval = 30 * 60

    /// The latest time to call a taxi and arrive by `arriveBy`: the deadline
    /// less the wait and the drive, the drive taken again at that later hour
    /// (speeds change with it) and the call moved by what that changes.
    private func latestCall(from: GeoKit.Coordinate, to: GeoKit.Coordinate, arriveBy: Date, waitSeconds: Double,
                            first: Reachability) -> Date {
        let estimate = arriveBy.addingTimeInterval(-(waitSeconds + first.driveSeconds))
        guard let again = try? router.reachability(from: from, to: to, depart: estimate, deadline: arriveBy, expectedWait: waitSeconds),
              again.marginSeconds.isFinite else { return estimate }
        return estimate.addingTimeInterval(again.marginSeconds)
    }

    private func zoneOf(_ point: GeoKit.Coordinate) throws -> Zone {
        guard let zone = zones.current.zone(at: point) else {
            throw Problem.notFound("the point \(point) is outside the service area (in no zone): no taxi is called there")
        }
        return zone
    }
}

/// `GET /v1/waits`.
struct WaitJSON: Encodable, Sendable {
    var zoneId: String
    var name: String?
    /// Seconds; absent when the zone has neither a free taxi nor a recent arrival rate.
    var expectedWaitS: Double?
    /// Where a taxi would stop when none can where asked, and the walk there.
    var meetingPoint: MeetingPointJSON?
    /// Nearby zones where walking there gets a taxi at least a minute sooner, soonest first.
    var shorterWaits: [ShorterWaitJSON]
    /// The zone's busiest hours of the city's day over the last four weeks, in the day's order.
    var busyHours: [BusyHours.Hour]
    /// With a destination: what a shared ride would be told now.
    var shared: SharedQuoteJSON?
}

/// What a shared ride from the point would be told now (SPEC D10), before
/// the passenger asks: when its taxi would come, whether it would join a
/// taxi already on a shared ride, and its trip's bounds.
struct SharedQuoteJSON: Encodable, Sendable {
    /// Seconds until its taxi would come; absent when there is no estimate.
    var expectedPickupS: Double?
    /// True when it would join a taxi already on a shared ride (then the
    /// pickup is that taxi's), false when it would be served alone.
    var joinsSharedRide: Bool
    /// The trip alone, seconds.
    var directTripS: Double
    /// The most the ride may take beyond the trip alone, seconds.
    var maximumAddedDelayS: Double

    /// The JSON of `quote` for a trip of `directTrip` alone.
    init(_ quote: SharedQuote, directTrip: Duration) {
        expectedPickupS = quote.pickupIn.map(JSONWriter.roundedSeconds)
        joinsSharedRide = quote.joining != nil
        directTripS = JSONWriter.roundedSeconds(directTrip)
        maximumAddedDelayS = JSONWriter.roundedSeconds(quote.maximumAddedDelay)
    }
}

/// A nearby zone worth the walk: where to go, how long the walk, the wait there.
struct ShorterWaitJSON: Encodable, Sendable {
    var zoneId: String
    var name: String?
    /// Where a taxi would stop for the passenger.
    var lon: Double
    var lat: Double
    var walkS: Double
    var walkM: Double
    /// True when the walk was routed on the walking graph, false when it is a stretched straight line.
    var walkRouted: Bool
    var expectedWaitS: Double
    /// The walk and the wait together.
    var totalS: Double
    /// That zone's busiest hours, as ``WaitJSON/busyHours``.
    var busyHours: [BusyHours.Hour]

    init(_ suggestion: ShorterWaits.Suggestion, busyHours: [BusyHours.Hour]) {
        self.busyHours = busyHours
        zoneId = suggestion.zone.id.text
        name = suggestion.zone.name
        lon = JSONWriter.roundedDegrees(suggestion.stop.longitude)
        lat = JSONWriter.roundedDegrees(suggestion.stop.latitude)
        walkS = JSONWriter.roundedTenths(suggestion.walk.walkSeconds)
        walkM = JSONWriter.roundedTenths(suggestion.walk.walkMetres)
        walkRouted = suggestion.walk.walkRouted
        expectedWaitS = JSONWriter.roundedSeconds(suggestion.expectedWait)
        totalS = JSONWriter.roundedTenths(suggestion.totalSeconds)
    }
}

/// `GET /v1/reachability`.
struct ReachabilityJSON: Codable, Sendable {
    var reachable: Bool
    /// ISO 8601: leave + expected wait + drive.
    var arrival: String
    /// Seconds to spare (negative: late).
    var marginS: Double
    var expectedWaitS: Double?
    var driveS: Double
    /// The zone the taxi is called in.
    var zoneId: String
    /// `arrival` in the city's local time, with its offset.
    var arrivalLocal: String
    /// ISO 8601: the latest time to call the taxi and still arrive by `arriveBy`.
    var leaveBy: String
    /// `leaveBy` in the city's local time.
    var leaveByLocal: String
    /// The city's time zone (the road graph's).
    var timeZone: String
    /// `live` (the zone's wait now) or `unknown` (none counted).
    var waitSource: String
    /// What the answer could not account for, or that it is late.
    var warnings: [String]
}
