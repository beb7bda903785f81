import DispatchCore
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
import Synchronization
import Zones

/// `/v1/zones`: for the dispatcher (SPEC D2, D4, Z2): the zones to draw,
/// the zone of a point, a zone's taxis, its taxi and passenger queues, and
/// the nearest zones with free taxis ranked by the ETA of their best taxi.
struct ZonesController: Sendable {
    let fleet: FleetIndex
    let zones: ActiveZones
    let dispatcher: Dispatcher
    /// The road map the taxis drive on: a point off it has no nearest taxi.
    let router: RoadRouter
    let clock: any ServiceClock
    /// The zones' taxi lists as written within the last second, while nothing the push sockets tell changed.
    let fleetDocuments: RecentFleetDocuments
    /// The zones in force as a GeoJSON FeatureCollection, written once per zone set.
    private let written = WrittenZones()

    init(
        fleet: FleetIndex, zones: ActiveZones, dispatcher: Dispatcher, router: RoadRouter, clock: any ServiceClock,
        fleetDocuments: RecentFleetDocuments
    ) {
        self.fleet = fleet
        self.zones = zones
        self.dispatcher = dispatcher
        self.router = router
        self.clock = clock
        self.fleetDocuments = fleetDocuments
    }

    /// The FeatureCollection of the last zone set asked for, kept until another is in force.
    private final class WrittenZones: Sendable {
        private let last = Mutex<(index: ObjectIdentifier, json: Data)?>(nil)

        func featureCollection(of index: ZoneIndex) -> Data {
            let id = ObjectIdentifier(index)
            if let kept = last.withLock({ $0 }), kept.index == id { return kept.json }
            let json = ZonesController.featureCollection(of: index.zoneSet)
            last.withLock { $0 = (id, json) }
            return json
        }
    }

    /// Who may look at zones and queues.
    static let readers: Set<Role> = [.dispatcher, .administrator, .planner]

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: list)
        group.get("at", use: zoneAt)
        group.get("nearest-free", use: nearestFree)
        group.get(":zoneId/taxis", use: taxis)
        group.get(":zoneId/queue", use: queue)
    }

    /// `GET /v1/zones`: every zone of the zone set in force, with its id,
    /// name, area and a point inside it (for the map), to every role: the
    /// apps show the service area.
    @Sendable func list(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Set(Role.allCases))
        return Response(
            status: .ok, headers: [.contentType: "application/geo+json"],
            body: .init(byteBuffer: ByteBuffer(bytes: written.featureCollection(of: zones.current))))
    }

    /// The zones as a FeatureCollection: each feature's `id` and
    /// `properties.zoneId` the zone's id, `properties.name` its name,
    /// `properties.inside` a point inside it (where the map asks the zone's expected wait).
    static func featureCollection(of zoneSet: ZoneSet) -> Data {
        let features: [JSONValue] = zoneSet.zones.map { zone in
            var properties: [String: JSONValue] = ["zoneId": .string(zone.id.text), "name": .string(zone.name)]
            if let inside = zone.geometry.pointOnSurface {
                properties["inside"] = .object(["lon": .number(inside.longitude), "lat": .number(inside.latitude)])
            }
            return .object([
                "type": .string("Feature"), "id": .string(zone.id.text), "properties": .object(properties),
                "geometry": zone.geometry.geoJSON ?? .null,
            ])
        }
        return Data(JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)]).serialized.utf8)
    }

    /// `GET /v1/zones/at?lon=&lat=`: the zone of a point; 404 outside every zone.
    @Sendable func zoneAt(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let point = try request.queryPoint()
        guard let zone = zones.current.zone(at: point) else {
            throw Problem.notFound("the point \(point) is outside the service area (in no zone)")
        }
        return try JSONResponse.ok(ZoneJSON(zoneId: zone.id.text, name: zone.name))
    }

    /// `GET /v1/zones/nearest-free?lon=&lat=&limit=5`: zones with free taxis,
    /// nearest first by their best taxi's ETA to the point (one many-to-one
    /// router query); 422 when the point is off the road map.
    @Sendable func nearestFree(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let point = try request.queryPoint()
        let limit = try request.queryCount("limit", in: 1...50, default: 5)
        do {
            _ = try router.snapper.snap(point, maxDistanceMetres: router.maxSnapDistanceMetres)
        } catch {
            throw Problem.unprocessable("the point \(point) is off the road map the taxis drive on (\(error)): no taxi's drive to it can be told")
        }
        let choices = await dispatcher.nearestZonesWithFreeTaxis(to: point, limit: limit)
        let zoneSet = zones.current.zoneSet
        return try JSONResponse.ok(choices.map {
            NearestZoneJSON(zoneId: $0.zone.text, name: zoneSet[$0.zone]?.name, taxiId: $0.taxi.text, etaS: JSONWriter.roundedSeconds($0.eta))
        })
    }

    /// `GET /v1/zones/{zoneId}/taxis`: the taxis the live index puts in the
    /// zone (positions as of at most a second ago: ``RecentFleetDocuments``).
    @Sendable func taxis(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let zone = try knownZone(context)
        return JSONResponse.ok(json: try await fleetDocuments.document(.zoneTaxis(zone)) {
            try FleetJSON.zoneTaxis(zoneId: zone.text, entries: fleet.entries(inZone: zone, now: clock.now))
        })
    }

    /// `GET /v1/zones/{zoneId}/queue`: the free taxis in line, head first, and the waiting passengers, oldest first.
    @Sendable func queue(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let zone = try knownZone(context)
        return JSONResponse.ok(json: ZoneQueueJSON(zone: zone, queues: await dispatcher.queues(in: zone), now: clock.now).json())
    }

    private func knownZone(_ context: APIRequestContext) throws -> ZoneID {
        let zone = ZoneID(try context.pathParameter("zoneId"))
        guard zones.current.zoneSet[zone] != nil else { throw Problem.notFound("there is no zone \(zone) in the zone set") }
        return zone
    }
}

/// `GET /v1/zones/at`: a zone's id and name.
struct ZoneJSON: Codable, Sendable {
    var zoneId: String
    var name: String?
}

/// One entry of `GET /v1/zones/nearest-free`.
struct NearestZoneJSON: Codable, Sendable {
    var zoneId: String
    var name: String?
    /// The zone's free taxi nearest to the point by driving time.
    var taxiId: String
    var etaS: Double
}

/// `GET /v1/zones/{zoneId}/queue`.
struct ZoneQueueJSON: Codable, Sendable {
    var zoneId: String
    var taxis: [QueuedTaxiJSON]
    var passengers: [QueuedPassengerJSON]

    /// The JSON of `zone`'s `queues`; `now` is the wall-clock time at the view's engine time.
    init(zone: ZoneID, queues: ZoneQueuesView, now: Date) {
        let time = EngineTime(engine: queues.engineTime, now: now)
        zoneId = zone.text
        taxis = queues.taxis.enumerated().map { index, entry in
            QueuedTaxiJSON(position: index + 1, taxiId: entry.taxi.text, availableSince: FixTime.iso8601(time.wall(entry.place.availableSince)))
        }
        passengers = queues.passengers.enumerated().map { index, request in
            QueuedPassengerJSON(position: index + 1, rideId: request.id.description, passengerId: request.passenger.text, confirmed: request.confirmed)
        }
    }
}

/// A free taxi in a zone's queue.
struct QueuedTaxiJSON: Codable, Sendable {
    var position: Int
    var taxiId: String
    /// ISO 8601: when it became available, which orders the queue.
    var availableSince: String
}

/// A waiting request in a zone's passenger queue.
struct QueuedPassengerJSON: Codable, Sendable {
    var position: Int
    var rideId: String
    var passengerId: String
    var confirmed: Bool
}
