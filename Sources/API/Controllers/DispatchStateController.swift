import DispatchRuntime
import Foundation
import Hummingbird
import Storage

/// `/v1/dispatch/state`: the dispatch engine's whole state as the engine
/// holds it, once everything in it is durable, for administrators: to
/// inspect a live service, and to check that a restart gives the same
/// state back (SPEC D1–D6).
struct DispatchStateController: Sendable {
    let dispatcher: Dispatcher

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get("state", use: state)
    }

    /// `GET /v1/dispatch/state` → `{"logSequence", "state", "decidesHere", "decidedBy"}`.
    @Sendable func state(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let durable = await dispatcher.durableState()
        let decidedBy: String? =
            switch durable.role {
            case .deciding(let lease), .following(let lease): lease?.node
            }
        return try JSONResponse.ok(DispatchStateJSON(
            logSequence: durable.logSequence, state: durable.snapshot, decidesHere: durable.role.decides, decidedBy: decidedBy))
    }
}
