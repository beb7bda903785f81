import FixRecords
import Foundation
import Hummingbird
import Storage
import Zones

/// The archive's history for dispatchers and planners (and
/// administrators): a taxi's track in a window as a GeoJSON LineString
/// (`GET /v1/taxis/{taxiId}/track`), its distance per UTC day
/// (`GET /v1/taxis/{taxiId}/distance`), and the fixes inside a zone of the
/// zone set in force (`GET /v1/zones/{zoneId}/fixes`, paged like a taxi's
/// fixes; a fix on a shared border counts in the one zone the border rule
/// gives it, as a live position would). Every window is bounded by `--history-max-days`.
struct FixHistoryController: Sendable {
    let archive: any FixArchive
    let zones: ActiveZones
    /// The longest window one request may ask for (`--history-max-days`).
    let maxWindow: TimeInterval

    /// Most positions one track holds; a longer one is refused, naming a shorter window as the way out.
    static let maxTrackPositions = 100_000

    /// The routes under `/v1/taxis`.
    func addTaxiRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(":taxiId/track", use: track)
        group.get(":taxiId/distance", use: distance)
    }

    /// The routes under `/v1/zones`.
    func addZoneRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(":zoneId/fixes", use: zoneFixes)
    }

    @Sendable func track(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.pathParameter("taxiId"))
        let window = try HistoryWindow(request, maxWindow: maxWindow)
        let track = try await archive.track(of: taxi, in: window.range, limit: Self.maxTrackPositions + 1)
        guard track.positions.count <= Self.maxTrackPositions else {
            throw Problem.unprocessable(
                "taxi \(taxi) sent more than \(Self.maxTrackPositions) fixes from \(window.fromText) to \(window.toText), more than one track may hold: ask for a shorter window")
        }
        var response = try JSONResponse.ok(TrackJSON(track, taxi: taxi, window: window.range))
        response.headers[.contentType] = "application/geo+json"
        return response
    }

    @Sendable func distance(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.pathParameter("taxiId"))
        let window = try HistoryWindow(request, maxWindow: maxWindow)
        return try JSONResponse.ok(DistanceJSON(try await archive.dailyDistances(of: taxi, in: window.range), taxi: taxi, window: window.range))
    }

    @Sendable func zoneFixes(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let zoneId = ZoneID(try context.pathParameter("zoneId"))
        guard let territory = zones.current.territories.territory(of: zoneId) else {
            throw Problem.notFound("no zone \(zoneId) in the zone set in force")
        }
        let window = try HistoryWindow(request, maxWindow: maxWindow)
        let limit = try request.queryCount("limit", in: 1...TaxisController.maxPageSize, default: TaxisController.defaultPageSize)
        let cursor = try request.uri.queryParameters.get("cursor").map { try ZoneFixCursor(parsing: String($0)) }
        let fetched = try await archive.fixes(inside: territory, in: window.range, after: cursor?.key, limit: limit + 1)
        let page = Array(fetched.prefix(limit))
        let next = fetched.count > limit ? page.last.map { window.nextPage(limit: limit, cursor: ZoneFixCursor(after: $0).text) } : nil
        return try PagedResponse.ok(page.map(TaxiJSON.init), path: request.uri.path, next: next)
    }
}
