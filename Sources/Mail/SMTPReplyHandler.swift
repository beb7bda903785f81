import NIOConcurrencyHelpers
import NIOCore

/// Hands the relay's replies, line by line from the line decoder before
/// it, to whoever waits for them, in order; a reply nobody waits for yet
/// (the greeting) is kept until asked. Lives on its channel's event loop.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var parser = SMTPReplyParser()
    private var waiting: [(id: Int, promise: EventLoopPromise<SMTPReply>)] = []
    private var arrived: [SMTPReply] = []
    private var failure: SMTPError?
    private var nextID = 0
    private var context: ChannelHandlerContext?
    /// Why the connection failed, for the connection to tell after its channel is gone.
    private let reportedFailure: NIOLockedValueBox<SMTPError?>

    init(reportingFailureTo reportedFailure: NIOLockedValueBox<SMTPError?>) {
        self.reportedFailure = reportedFailure
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var line = unwrapInboundIn(data)
        var text = line.readString(length: line.readableBytes) ?? ""
        if text.hasSuffix("\r") { text.removeLast() }
        do {
            guard let reply = try parser.take(text) else { return }
            if waiting.isEmpty {
                arrived.append(reply)
            } else {
                waiting.removeFirst().promise.succeed(reply)
            }
        } catch {
            fail(error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.transient("the relay closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.transient("the connection to the relay failed: \(error)"))
        context.close(promise: nil)
    }

    /// The next reply, failing after `timeout` (the connection is closed then).
    func next(timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<SMTPReply> {
        if !arrived.isEmpty { return eventLoop.makeSucceededFuture(arrived.removeFirst()) }
        if let failure { return eventLoop.makeFailedFuture(failure) }
        let promise = eventLoop.makePromise(of: SMTPReply.self)
        nextID += 1
        let id = nextID
        waiting.append((id, promise))
        eventLoop.scheduleTask(in: timeout) { [self] in
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
            waiting.remove(at: index).promise.fail(SMTPError.transient("the relay did not answer within \(timeout.nanoseconds / 1_000_000_000) s"))
            context?.close(promise: nil)
        }
        return promise.futureResult
    }

    private func fail(_ error: SMTPError) {
        if failure == nil {
            failure = error
            reportedFailure.withLockedValue { $0 = $0 ?? error }
        }
        let pending = waiting
        waiting = []
        for waiter in pending { waiter.promise.fail(error) }
    }
}
