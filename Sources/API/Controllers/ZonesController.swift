import Fleet
import Foundation
import Hummingbird
import ServiceClock
import Zones

/// `/v1/zones/{zoneId}/taxis`: the taxis in a zone now.
struct ZonesController: Sendable {
    let fleet: FleetIndex
    let zoneSet: ZoneSet
    let clock: any ServiceClock

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(":zoneId/taxis", use: taxis)
    }

    @Sendable func taxis(_ request: Request, context: APIRequestContext) throws -> Response {
        let zone = ZoneID(try context.parameters.require("zoneId"))
        guard zoneSet[zone] != nil else { throw Problem.notFound("there is no zone \(zone) in the zone set") }
        return try JSONResponse.ok(
            ZoneTaxisJSON(zoneId: zone.text, taxis: fleet.entries(inZone: zone, now: clock.now).map(TaxiJSON.init)))
    }
}

/// `GET /v1/zones/{zoneId}/taxis`: the zone and its taxis, by taxi id.
struct ZoneTaxisJSON: Codable, Sendable {
    var zoneId: String
    var taxis: [TaxiJSON]
}
