import Foundation
import NIOCore
import NIOPosix

/// A UDP socket carrying the fixes of several simulated devices, one message
/// (one fix, or --records-per-packet of one device) per datagram; sequence
/// numbers are unique per socket so answers match.
final class DatagramDevicesHandler: ChannelInboundHandler, PacedSender {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private var sources: [FixSource]
    private let codec: any DatagramDeviceCodec
    private let plan: LoadPlan
    private let server: SocketAddress
    private let keepAcked: Bool
    private var next = 0
    private var seq: UInt64 = 0
    private var inFlight: [UInt64: (message: OutstandingMessage, deviceId: String)] = [:]
    private var inFlightFixes = 0
    private var context: ChannelHandlerContext?
    private(set) var tally = DeviceTally()

    /// A socket sending `sources`' fixes encoded by `codec` to `server`.
    init(sources: [FixSource], codec: any DatagramDeviceCodec, plan: LoadPlan, server: SocketAddress, keepAcked: Bool) {
        self.sources = sources
        self.codec = codec
        self.plan = plan
        self.server = server
        self.keepAcked = keepAcked
    }

    /// Fixes sent and not yet acknowledged.
    var outstanding: Int { inFlightFixes }

    /// Messages per second this socket offers with --rate.
    var messagesPerSecond: Double { plan.ratePerDevice * Double(sources.count) / Double(plan.fixesPerMessage) }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// On ``StartSending``, fills the window and keeps it topped up; with
    /// --rate the loop's ``LoopPacer`` sends instead.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is StartSending else { return context.fireUserInboundEventTriggered(event) }
        guard plan.ratePerDevice == 0 else { return }
        fillWindow(context: context)
        // Datagrams can be lost: top the window up even when no ACK comes back.
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { task in
            let (handler, context) = loopBound.value
            handler.expireLost(olderThan: .seconds(1))
            handler.fillWindow(context: context)
            if handler.plan.isFinished { task.cancel() }
        }
    }

    func sendPaced() -> Bool {
        guard let context else { return false }
        return sendOne(context: context)
    }

    func flushPaced() {
        context?.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let now = ContinuousClock.now
        for key in codec.acknowledged(in: envelope.data.readableBytesView) {
            guard let entry = inFlight.removeValue(forKey: key) else { continue }
            let (sent, deviceId) = (entry.message, entry.deviceId)
            inFlightFixes -= sent.times.count
            let latency = now - sent.sentAt
            let nanos = latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000
            for (offset, time) in sent.times.enumerated() {
                tally.latenciesNanos.append(nanos)
                if keepAcked { tally.acked.append((deviceId, sent.firstSequence + UInt64(offset), time)) }
            }
        }
        if plan.ratePerDevice == 0 { fillWindow(context: context) }
    }

    /// Forgets datagrams unanswered for `age` (lost), so that the window moves on.
    private func expireLost(olderThan age: Duration) {
        let now = ContinuousClock.now
        inFlight = inFlight.filter { now - $0.value.message.sentAt < age }
        inFlightFixes = inFlight.values.reduce(0) { $0 + $1.message.times.count }
    }

    /// Sends until --window fixes per device are in flight on this socket.
    private func fillWindow(context: ChannelHandlerContext) {
        var wrote = false
        while inFlightFixes < plan.window * sources.count, sendOne(context: context) { wrote = true }
        if wrote { context.flush() }
    }

    /// Writes the next device's next message if the plan allows; false when done.
    private func sendOne(context: ChannelHandlerContext) -> Bool {
        guard plan.claim() else { return false }
        var fixes: [GeneratedFix] = []
        var index = next
        for _ in 0..<sources.count where fixes.isEmpty {
            index = next
            if let fix = sources[index].next() { fixes.append(fix) }
            next = (next + 1) % sources.count
        }
        guard !fixes.isEmpty else { return false }
        while fixes.count < plan.fixesPerMessage, plan.claim(), let fix = sources[index].next() { fixes.append(fix) }
        let first = seq + 1
        seq += UInt64(fixes.count)
        tally.sent += fixes.count
        var payload = context.channel.allocator.buffer(capacity: 96 * fixes.count)
        let key = codec.write(fixes, sequence: first, into: &payload)
        inFlight[key] = (OutstandingMessage(sentAt: ContinuousClock.now, firstSequence: first, times: fixes.map(\.time)), fixes[0].deviceId)
        inFlightFixes += fixes.count
        context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: server, data: payload)), promise: nil)
        return true
    }
}

/// Runs the UDP load over a few sockets, each carrying a share of the devices.
struct UDPLoad {
    let group: any EventLoopGroup
    let host: String
    let port: Int
    let plan: LoadPlan
    let codec: any DatagramDeviceCodec
    var keepAcked = true
    var sockets = 64

    /// Binds the sockets, shares the devices among them, then runs the plan.
    func run(sources: [FixSource]) async throws -> LoadResult {
        let server = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let socketCount = min(sockets, sources.count)
        var channels: [(any Channel, NIOLoopBound<DatagramDevicesHandler>)] = []
        for index in 0..<socketCount {
            let share = stride(from: index, to: sources.count, by: socketCount).map { sources[$0] }
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(.socketOption(.so_rcvbuf), value: 4 * 1024 * 1024)
                .channelOption(.datagramVectorReadMessageCount, value: 32)
                .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 32 * 512))
                .bind(host: host, port: 0).get()
            let handler = try await channel.eventLoop.submit {
                let handler = DatagramDevicesHandler(sources: share, codec: codec, plan: plan, server: server, keepAcked: keepAcked)
                try channel.pipeline.syncOperations.addHandler(handler)
                return NIOLoopBound(handler, eventLoop: channel.eventLoop)
            }.get()
            channels.append((channel, handler))
        }
        plan.begin()
        if plan.ratePerDevice > 0 {
            var entries: [LoopPacer.Entry<DatagramDevicesHandler>] = []
            for (channel, handler) in channels {
                let rate = try await channel.eventLoop.submit { handler.value.messagesPerSecond }.get()
                entries.append(LoopPacer.Entry(eventLoop: channel.eventLoop, sender: handler, messagesPerSecond: rate))
            }
            try await LoopPacer.start(entries, plan: plan)
        } else {
            for (channel, _) in channels { channel.pipeline.fireUserInboundEventTriggered(StartSending()) }
        }
        while !plan.isFinished { try await Task.sleep(for: .milliseconds(20)) }
        let sendingTime = plan.elapsed
        let drainStart = ContinuousClock.now
        while ContinuousClock.now - drainStart < plan.drain {
            var outstanding = 0
            for (channel, handler) in channels {
                outstanding += try await channel.eventLoop.submit { handler.value.outstanding }.get()
            }
            if outstanding == 0 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        var tallies: [DeviceTally] = []
        for (channel, handler) in channels {
            tallies.append(try await channel.eventLoop.submit { handler.value.tally }.get())
            try? await channel.close()
        }
        return LoadResult(tallies: tallies, sendingTime: max(sendingTime, .milliseconds(1)), totalTime: sendingTime + (ContinuousClock.now - drainStart))
    }
}
