import HummingbirdCore
import Logging
import NIOCore

/// The API port's connections: `base` (HTTP/1.1 with the `/v1/push`
/// WebSocket upgrade) behind two handlers nearest the socket, a
/// ``FirstRequestHeadHandler`` (the first head's deadline and size) and an
/// ``UpgradeRefusalHandler`` (a refused upgrade answered with its status).
/// What the base logs about a connection the service cut itself is logged
/// at debug (``ConnectionCut``).
struct APIChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    /// A connection set up by `base`, and whether the service cut it short.
    struct Value: ServerChildChannelValue {
        let base: Base.Value
        let cut: ConnectionCut
        var channel: any Channel { base.channel }
    }

    let base: Base
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let cut = ConnectionCut()
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestHeadHandler(timeout: timeout, cut: cut))
            try channel.pipeline.syncOperations.addHandler(UpgradeRefusalHandler())
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger).map { Value(base: $0, cut: cut) }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value.base, logger: value.cut.logger(logger))
    }
}
