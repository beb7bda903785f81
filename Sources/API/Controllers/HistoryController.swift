import DispatchRuntime
import Hummingbird
import Storage

/// `/v1/history`: a passenger's upcoming reservations and the rides and
/// bookings that ended in the past days (SPEC D8).
struct HistoryController: Sendable {
    let dispatcher: Dispatcher

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: history)
    }

    /// `GET /v1/history?days=31`.
    @Sendable func history(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger])
        let days = try request.queryCount("days", in: 1...366, default: 31)
        let history = try await dispatcher.history(ofPassenger: caller.passenger, days: days)
        return try JSONResponse.ok(PassengerHistoryJSON(
            upcoming: history.upcoming.map(ReservationJSON.init), past: history.past.map(HistoryJSON.init)))
    }
}
