import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Storage

/// What every API route knows about its request: Hummingbird's core (the
/// logger with the request id, the path parameters), the client's address
/// (for rate limits) and, behind ``AuthenticationMiddleware``, the caller;
/// the same context serves the WebSocket upgrade of `/v1/push`.
public struct APIRequestContext: RequestContext, RemoteAddressRequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Where the WebSocket route of `/v1/push` leaves its handler for the upgrade.
    public let webSocket = WebSocketHandlerReference<Self>()
    /// The client's socket address, nil when unknown (a test client).
    public let remoteAddress: SocketAddress?
    /// The connection, for what is told beneath the HTTP codec (``UpgradeRefusalMiddleware``).
    let channel: (any Channel)?
    /// The account behind the bearer token, set by ``AuthenticationMiddleware``;
    /// nil on the routes anyone may call.
    public var caller: Caller?
    /// The request's `Idempotency-Key`, scoped to its caller, method and
    /// path, set by ``IdempotencyMiddleware``: dispatch commands carry it
    /// into the dispatch log. Nil without the header.
    public var idempotencyKey: String?

    /// JSON bodies are small: 64 KiB is ample for any request of the API
    /// but a zone set, which its route allows more.
    public var maxUploadSize: Int { Self.maxJSONBody }

    /// The largest JSON body the API reads.
    public static let maxJSONBody = 64 * 1024

    public init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// The caller, when its role is one of `roles` (SPEC A1).
    /// - Throws: ``Problem`` 401 without a caller, 403 for another role.
    public func requireCaller(in roles: Set<Role>) throws -> Caller {
        guard let caller else { throw Problem.unauthorized("this endpoint needs a bearer token: log in with POST /v1/sessions") }
        guard roles.contains(caller.role) else {
            let allowed = roles.map(\.rawValue).sorted().joined(separator: ", ")
            throw Problem(status: .forbidden, detail: "a \(caller.role.rawValue) may not call this endpoint; it is for: \(allowed)")
        }
        return caller
    }
}
