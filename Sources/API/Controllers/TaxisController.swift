import FixRecords
import Fleet
import Foundation
import Hummingbird
import ServiceClock
import Ingest
import Storage

/// `/v1/taxis/{taxiId}`: a taxi's live position, and its archived fixes in
/// a time window, a bounded window and a page at a time, so that no single
/// request holds the archive.
struct TaxisController: Sendable {
    let fleet: FleetIndex
    let archive: any FixArchive
    let clock: any ServiceClock
    /// The longest window one `/fixes` request may ask for (`--history-max-days`).
    let maxWindow: TimeInterval

    /// Fixes a page holds unless `limit` says fewer or more.
    static let defaultPageSize = 10_000
    /// Most fixes one page holds.
    static let maxPageSize = 50_000
    /// Fixes of one taxi taken in the same millisecond (by several of its
    /// devices) that a page boundary may fall among.
    static let sameMillisecondAllowance = 64

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(":taxiId", use: position)
        group.get(":taxiId/fixes", use: fixes)
    }

    @Sendable func position(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.pathParameter("taxiId"))
        guard let entry = fleet.entry(for: taxi, now: clock.now) else {
            throw Problem.notFound("no taxi \(taxi) has reported a position")
        }
        return try JSONResponse.ok(TaxiJSON(entry))
    }

    @Sendable func fixes(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: ZonesController.readers)
        let taxi = TaxiID(try context.pathParameter("taxiId"))
        let window = try HistoryWindow(request, maxWindow: maxWindow)
        let (from, to) = (window.range.lowerBound, window.range.upperBound)
        let limit = try request.queryCount("limit", in: 1...Self.maxPageSize, default: Self.defaultPageSize)
        let cursor = try request.uri.queryParameters.get("cursor").map { try FixPageCursor(parsing: String($0)) }
        let start = max(from, cursor?.time ?? from)
        guard start <= to else { return try JSONResponse.ok([TaxiJSON]()) }
        let fetched = try await archive.fixes(of: taxi, in: start...to, limit: limit + 1 + Self.sameMillisecondAllowance)
        let remaining = fetched.drop { cursor?.alreadyGiven($0) == true }
        let page = Array(remaining.prefix(limit))
        let next = remaining.count > limit ? page.last.map { window.nextPage(limit: limit, cursor: FixPageCursor(after: $0).text) } : nil
        return try PagedResponse.ok(page.map(TaxiJSON.init), path: request.uri.path, next: next)
    }
}
