import FixRecords
import Fleet
import Foundation
import Hummingbird
import ServiceClock
import Ingest
import Storage

/// `/v1/taxis/{taxiId}`: a taxi's live position, and its archived fixes in
/// a time window.
struct TaxisController: Sendable {
    let fleet: FleetIndex
    let archive: any FixArchive
    let clock: any ServiceClock

    /// Most fixes one `/fixes` request returns.
    static let maxFixesPerRequest = 50_000

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(":taxiId", use: position)
        group.get(":taxiId/fixes", use: fixes)
    }

    @Sendable func position(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.parameters.require("taxiId"))
        guard let entry = fleet.entry(for: taxi, now: clock.now) else {
            throw Problem.notFound("no taxi \(taxi) has reported a position")
        }
        return try JSONResponse.ok(TaxiJSON(entry))
    }

    @Sendable func fixes(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.parameters.require("taxiId"))
        let query = request.uri.queryParameters
        guard let fromText = query.get("from"), let from = FixTime.date(iso8601: fromText) else {
            throw Problem.badRequest("query parameter 'from' must be an ISO 8601 time, e.g. 2026-11-23T08:00:00Z")
        }
        guard let toText = query.get("to"), let to = FixTime.date(iso8601: toText) else {
            throw Problem.badRequest("query parameter 'to' must be an ISO 8601 time, e.g. 2026-11-23T09:00:00Z")
        }
        guard from <= to else { throw Problem.badRequest("'from' (\(fromText)) is after 'to' (\(toText))") }
        let fixes = try await archive.fixes(of: taxi, in: from...to, limit: Self.maxFixesPerRequest)
        return try JSONResponse.ok(fixes.map(TaxiJSON.init))
    }
}
