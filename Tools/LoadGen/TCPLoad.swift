import Foundation
import NIOCore
import NIOPosix

/// Tells a device's handler to start sending.
struct StartSending {}

/// A fix sent and not yet acknowledged, with the others of its message.
struct OutstandingMessage {
    /// When the message was written.
    var sentAt: ContinuousClock.Instant
    /// The sequence number of its first fix; the others follow.
    var firstSequence: UInt64
    /// The times of its fixes, for `--acked-out`.
    var times: [Date]
}

/// One simulated terminal on its own TCP connection: opens the session its
/// protocol needs (login, handshake), then sends fixes (paced by --rate, or
/// keeping --window in flight) and times each ACK. For a protocol without
/// ACKs (NMEA) the window is kept by the socket's writability instead.
final class DeviceConnectionHandler: ChannelInboundHandler, PacedSender {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Where the session stands; fixes are only sent once it is open.
    private enum Phase { case opening, open, refused }

    private var source: FixSource
    private var codec: any StreamDeviceCodec
    private let plan: LoadPlan
    private let keepAcked: Bool
    private var phase = Phase.opening
    private var openingAnswer: [UInt8] = []
    private var seq: UInt64 = 0
    private var inFlight: [UInt64: OutstandingMessage] = [:]
    private var inFlightFixes = 0
    private var context: ChannelHandlerContext?
    private(set) var tally = DeviceTally()
    /// Succeeds once the server accepted the session's opening.
    let opened: EventLoopPromise<Void>

    /// A device sending `source`'s fixes with `codec`; `opened` is completed on `eventLoop`.
    init(source: FixSource, codec: any StreamDeviceCodec, plan: LoadPlan, keepAcked: Bool, eventLoop: any EventLoop) {
        self.source = source
        self.codec = codec
        self.plan = plan
        self.keepAcked = keepAcked
        opened = eventLoop.makePromise()
    }

    /// Fixes sent and not yet acknowledged.
    var outstanding: Int { inFlightFixes }

    /// Writes the session's opening as soon as the handler is on the
    /// (connected) channel, and gives the server 10 s to answer it.
    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let opening = codec.opening()
        if !opening.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: opening)), promise: nil)
        }
        settleOpening(codec.openingAccepted(&openingAnswer), context: context)
        guard phase == .opening else { return }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .seconds(10)) {
            let (handler, context) = loopBound.value
            handler.fail(LoadGenError("device \(handler.source.deviceId): no answer to its login within 10 s"), context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// On ``StartSending`` (once every device is connected and open), fills
    /// the window; with --rate the loop's ``LoopPacer`` sends instead.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is StartSending else { return context.fireUserInboundEventTriggered(event) }
        guard phase == .open, plan.ratePerDevice == 0 else { return }
        fillWindow(context: context)
    }

    func sendPaced() -> Bool {
        guard phase == .open, let context, context.channel.isActive else { return false }
        return sendOne(context: context)
    }

    func flushPaced() {
        context?.flush()
    }

    /// The opening's answer while the session opens; then ACKs, each timed against its message.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if phase == .opening {
            openingAnswer += buffer.readableBytesView
            settleOpening(codec.openingAccepted(&openingAnswer), context: context)
            return
        }
        let now = ContinuousClock.now
        for key in codec.acknowledged(in: buffer.readableBytesView) {
            guard let sent = inFlight.removeValue(forKey: key) else { continue }
            inFlightFixes -= sent.times.count
            let latency = now - sent.sentAt
            let nanos = latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000
            for (offset, time) in sent.times.enumerated() {
                tally.latenciesNanos.append(nanos)
                if keepAcked { tally.acked.append((source.deviceId, sent.firstSequence + UInt64(offset), time)) }
            }
        }
        if plan.ratePerDevice == 0 { fillWindow(context: context) }
    }

    /// Without ACKs, the next window goes out when the socket drains.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !codec.acknowledges, plan.ratePerDevice == 0, context.channel.isWritable { fillWindow(context: context) }
    }

    /// Stops sending; a session closed while opening fails its login.
    func channelInactive(context: ChannelHandlerContext) {
        fail(LoadGenError("device \(source.deviceId): the server closed the connection before accepting its login (is the device in the server's devices file?)"), context: context)
    }

    /// Any socket error ends this device's connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Opens the session on true, fails it on false, waits on nil.
    private func settleOpening(_ accepted: Bool?, context: ChannelHandlerContext) {
        guard let accepted, phase == .opening else { return }
        if accepted {
            phase = .open
            opened.succeed()
        } else {
            fail(LoadGenError("device \(source.deviceId): the server refused its login"), context: context)
        }
    }

    /// Fails a session still opening, and closes its connection.
    private func fail(_ error: LoadGenError, context: ChannelHandlerContext) {
        guard phase == .opening else { return }
        phase = .refused
        opened.fail(error)
        context.close(promise: nil)
    }

    /// Sends until --window fixes are in flight; without ACKs, sends up to
    /// --window messages per turn of the event loop while the socket is writable.
    private func fillWindow(context: ChannelHandlerContext) {
        var wrote = false
        if codec.acknowledges {
            while inFlightFixes < plan.window, sendOne(context: context) { wrote = true }
            if wrote { context.flush() }
            return
        }
        var budget = plan.window
        while budget > 0, context.channel.isWritable, sendOne(context: context) {
            budget -= 1
            wrote = true
        }
        guard wrote else { return }
        context.flush()
        if context.channel.isWritable {
            let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            context.eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.fillWindow(context: context)
            }
        }
    }

    /// Writes the next message (up to --records-per-packet fixes) if the plan allows; false when done.
    private func sendOne(context: ChannelHandlerContext) -> Bool {
        var fixes: [GeneratedFix] = []
        while fixes.count < plan.fixesPerMessage, plan.claim(), let fix = source.next() { fixes.append(fix) }
        guard !fixes.isEmpty else { return false }
        let first = seq + 1
        seq += UInt64(fixes.count)
        tally.sent += fixes.count
        var payload = context.channel.allocator.buffer(capacity: 96 * fixes.count)
        let key = codec.write(fixes, sequence: first, into: &payload)
        if codec.acknowledges {
            inFlight[key] = OutstandingMessage(sentAt: ContinuousClock.now, firstSequence: first, times: fixes.map(\.time))
            inFlightFixes += fixes.count
        }
        context.write(wrapOutboundOut(payload), promise: nil)
        return true
    }
}

/// Runs the TCP load: connects every device and opens its session, sends,
/// drains, collects tallies.
struct TCPLoad {
    let group: any EventLoopGroup
    let host: String
    let port: Int
    let plan: LoadPlan
    let wireProtocol: LoadProtocol
    var keepAcked = true

    /// Connects one connection per source (256 at a time), then runs the plan.
    func run(sources: [FixSource]) async throws -> LoadResult {
        var connections: [(any Channel, NIOLoopBound<DeviceConnectionHandler>)] = []
        connections.reserveCapacity(sources.count)
        let startedAt = ContinuousClock.now
        for batchStart in stride(from: 0, to: sources.count, by: 256) {
            let batch = sources[batchStart..<min(batchStart + 256, sources.count)]
            try await withThrowingTaskGroup(of: (any Channel, NIOLoopBound<DeviceConnectionHandler>).self) { tasks in
                for source in batch {
                    tasks.addTask {
                        let channel = try await ClientBootstrap(group: group)
                            .channelOption(.socketOption(.tcp_nodelay), value: 1)
                            .connect(host: host, port: port).get()
                        let (handler, opened) = try await channel.eventLoop.submit {
                            let handler = DeviceConnectionHandler(
                                source: source, codec: wireProtocol.streamCodec(deviceId: source.deviceId), plan: plan,
                                keepAcked: keepAcked, eventLoop: channel.eventLoop)
                            try channel.pipeline.syncOperations.addHandler(handler)
                            return (NIOLoopBound(handler, eventLoop: channel.eventLoop), handler.opened.futureResult)
                        }.get()
                        try await opened.get()
                        return (channel, handler)
                    }
                }
                for try await connection in tasks { connections.append(connection) }
            }
        }
        print("connected \(connections.count) devices in \(ContinuousClock.now - startedAt)")
        plan.begin()
        if plan.ratePerDevice > 0 {
            let messagesPerDevice = plan.ratePerDevice / Double(plan.fixesPerMessage)
            let entries = connections.map {
                LoopPacer.Entry(eventLoop: $0.0.eventLoop, sender: $0.1, messagesPerSecond: messagesPerDevice)
            }
            try await LoopPacer.start(entries, plan: plan)
        } else {
            for (channel, _) in connections { channel.pipeline.fireUserInboundEventTriggered(StartSending()) }
        }
        while !plan.isFinished { try await Task.sleep(for: .milliseconds(20)) }
        let sendingTime = plan.elapsed
        let drainStart = ContinuousClock.now
        while ContinuousClock.now - drainStart < plan.drain {
            var outstanding = 0
            for (channel, handler) in connections {
                outstanding += try await channel.eventLoop.submit { handler.value.outstanding }.get()
            }
            if outstanding == 0 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        var tallies: [DeviceTally] = []
        for (channel, handler) in connections {
            tallies.append(try await channel.eventLoop.submit { handler.value.tally }.get())
            try? await channel.close()
        }
        let ackedTime = sendingTime + (ContinuousClock.now - drainStart)
        return LoadResult(tallies: tallies, sendingTime: max(sendingTime, .milliseconds(1)), totalTime: ackedTime)
    }
}
