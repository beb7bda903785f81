import FixRecords
import Foundation
import Hummingbird

/// The time window of a history request (`?from=...&to=...`, ISO 8601),
/// checked: both present, in order, and no longer than the service allows
/// (`--history-max-days`), so that no single request reads the archive whole.
struct HistoryWindow {
    /// The window's start and end.
    let range: ClosedRange<Date>
    /// The parameters as the client wrote them, for the next page's URL.
    let fromText: String
    let toText: String

    /// The window of `request`'s `from` and `to`.
    /// - Throws: ``Problem`` 400 naming the parameter that is missing or
    ///   not a time; 422 when both are times but `from` is after `to` or the
    ///   window is longer than the service allows (well formed, not answerable).
    init(_ request: Request, maxWindow: TimeInterval) throws {
        let query = request.uri.queryParameters
        guard let fromText = query.get("from"), let from = FixTime.date(iso8601: fromText) else {
            throw Problem.badRequest("query parameter 'from' must be an ISO 8601 time, e.g. 2026-11-23T08:00:00Z")
        }
        guard let toText = query.get("to"), let to = FixTime.date(iso8601: toText) else {
            throw Problem.badRequest("query parameter 'to' must be an ISO 8601 time, e.g. 2026-11-23T09:00:00Z")
        }
        guard from <= to else {
            throw Problem.unprocessable("'from' (\(fromText)) is after 'to' (\(toText)): swap them")
        }
        guard to.timeIntervalSince(from) <= maxWindow else {
            throw Problem.unprocessable(
                "the window from \(fromText) to \(toText) is longer than \(String(format: "%g", maxWindow / 86_400)) days, the most one request may ask for (the service's --history-max-days): ask for shorter windows one after another")
        }
        range = from...to
        self.fromText = String(fromText)
        self.toText = String(toText)
    }

    /// The query of the page after this one: the same window and `limit`, from `cursor` on.
    func nextPage(limit: Int, cursor: String) -> [(name: String, value: String)] {
        [("from", fromText), ("to", toText), ("limit", "\(limit)"), ("cursor", cursor)]
    }
}
