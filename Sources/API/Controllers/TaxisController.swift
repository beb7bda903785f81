import FixRecords
import Fleet
import Foundation
import HTTPTypes
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
        guard to.timeIntervalSince(from) <= maxWindow else {
            throw Problem.badRequest(
                "the window from \(fromText) to \(toText) is longer than \(Self.days(maxWindow)) days, the most one request may ask for (the service's --history-max-days): ask for shorter windows one after another")
        }
        let limit = try request.queryCount("limit", in: 1...Self.maxPageSize, default: Self.defaultPageSize)
        let cursor = try query.get("cursor").map { try FixPageCursor(parsing: String($0)) }
        let start = max(from, cursor?.time ?? from)
        guard start <= to else { return try JSONResponse.ok([TaxiJSON]()) }
        let fetched = try await archive.fixes(of: taxi, in: start...to, limit: limit + 1 + Self.sameMillisecondAllowance)
        let remaining = fetched.drop { cursor?.alreadyGiven($0) == true }
        let page = Array(remaining.prefix(limit))
        var response = try JSONResponse.ok(page.map(TaxiJSON.init))
        if remaining.count > limit, let last = page.last {
            let next = [("from", fromText), ("to", toText), ("limit", "\(limit)"), ("cursor", FixPageCursor(after: last).text)]
                .map { "\($0.0)=\(Self.queryEncoded($0.1))" }.joined(separator: "&")
            response.headers[Self.link] = "<\(request.uri.path)?\(next)>; rel=\"next\""
        }
        return response
    }

    /// The `Link` header (RFC 8288) that carries the next page's URL.
    static let link = HTTPField.Name("Link")!

    private static func days(_ window: TimeInterval) -> String {
        String(format: "%g", window / 86_400)
    }

    /// `text` as a query parameter's value: `+`, `&`, `=` and the like percent-encoded.
    private static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~:"))) ?? text
    }
}
