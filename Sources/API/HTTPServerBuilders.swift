import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOCore

extension HTTPServerBuilder {
    /// How long a push socket's close handshake may take (a logout, the
    /// service stopping) before the connection is cut.
    public static let pushCloseTimeout: Duration = .seconds(5)

    /// HTTP/1.1 whose clients must send each request whole within `timeout`
    /// (a slow header cannot hold the connection) and whose idle
    /// connections close after it: the OsmAnd listener and `/metrics`.
    public static func http1(requestTimeout timeout: TimeAmount) -> HTTPServerBuilder {
        .http1(configuration: .init(additionalChannelHandlers: [HTTPRequestDeadlineHandler(timeout: timeout)], idleTimeout: timeout))
    }

    /// The API's server: HTTP/1.1 as ``http1(requestTimeout:)``, whose
    /// `GET /v1/push` may be upgraded to a WebSocket answered by
    /// `webSocketRouter`. A pushed socket is pinged every 30 s, so a
    /// vanished phone's socket is closed, and a client that does not answer
    /// the close handshake is cut off after ``pushCloseTimeout``. The first
    /// request's head, which the upgrade negotiation reads before the HTTP
    /// handlers exist, is held to its deadline and size by ``APIChildChannel``.
    public static func api(
        webSocketRouter: Hummingbird.Router<APIRequestContext>, requestTimeout timeout: TimeAmount
    ) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            APIChildChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(additionalChannelHandlers: [HTTPRequestDeadlineHandler(timeout: timeout)], idleTimeout: timeout),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: pushCloseTimeout))),
                timeout: timeout)
        }
    }
}
