import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Hummingbird
import ServiceClock
import Storage

/// `/v1/fleet`: the live fleet for the dispatcher's map and board: every
/// taxi with its latest position, its zone and its driver's state (SPEC I5, D1).
struct FleetController: Sendable {
    let fleet: FleetIndex
    let dispatcher: Dispatcher
    let clock: any ServiceClock
    /// The fleet's document as written within the last second, while nothing the push sockets tell changed.
    let fleetDocuments: RecentFleetDocuments

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: list)
    }

    /// `GET /v1/fleet`: one entry per taxi that ever reported, by taxi id
    /// (positions as of at most a second ago: ``RecentFleetDocuments``).
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        return JSONResponse.ok(json: try await fleetDocuments.document(.fleet) {
            let records = await dispatcher.taxiRecords()
            return try FleetJSON.fleet(fleet.entries(now: clock.now)) { taxi in DriverStateText.text(records[taxi]?.state ?? .offDuty) }
        })
    }
}

/// A taxi of `GET /v1/fleet`: its live position and the driver's state.
struct FleetTaxiJSON: Codable, Sendable {
    var position: TaxiJSON
    /// `offDuty`, `unavailable`, `available`, `offered`, `busy`.
    var state: String
}
