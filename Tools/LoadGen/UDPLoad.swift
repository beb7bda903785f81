import Foundation
import NIOCore
import NIOPosix

/// A UDP socket carrying the fixes of several simulated devices, one fix per
/// datagram; sequence numbers are unique per socket so ACKs match.
final class DatagramDevicesHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private var sources: [FixSource]
    private let plan: LoadPlan
    private let server: SocketAddress
    private let keepAcked: Bool
    private var next = 0
    private var seq: UInt64 = 0
    private var inFlight: [UInt64: (sentAt: ContinuousClock.Instant, deviceId: String, time: Date)] = [:]
    private var timer: RepeatedTask?
    private(set) var tally = DeviceTally()

    init(sources: [FixSource], plan: LoadPlan, server: SocketAddress, keepAcked: Bool) {
        self.sources = sources
        self.plan = plan
        self.server = server
        self.keepAcked = keepAcked
    }

    var outstanding: Int { inFlight.count }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is StartSending else { return context.fireUserInboundEventTriggered(event) }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        if plan.ratePerDevice > 0 {
            let period = TimeAmount.nanoseconds(Int64(1e9 / (plan.ratePerDevice * Double(sources.count))))
            timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: period) { task in
                let (handler, context) = loopBound.value
                if !handler.sendOne(context: context) { task.cancel() }
                context.flush()
            }
        } else {
            fillWindow(context: context)
            // Datagrams can be lost: top the window up even when no ACK comes back.
            timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(100), delay: .milliseconds(100)) { task in
                let (handler, context) = loopBound.value
                handler.expireLost(olderThan: .seconds(1))
                handler.fillWindow(context: context)
                if handler.plan.isFinished { task.cancel() }
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        var remainder: [UInt8] = []
        let now = ContinuousClock.now
        for sequence in LinePayload.acknowledgedSequences(in: Array(envelope.data.readableBytesView), remainder: &remainder) {
            guard let sent = inFlight.removeValue(forKey: sequence) else { continue }
            let latency = now - sent.sentAt
            tally.latenciesNanos.append(latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
            if keepAcked { tally.acked.append((sent.deviceId, sequence, sent.time)) }
        }
        if plan.ratePerDevice == 0 { fillWindow(context: context) }
    }

    private func expireLost(olderThan age: Duration) {
        let now = ContinuousClock.now
        inFlight = inFlight.filter { now - $0.value.sentAt < age }
    }

    private func fillWindow(context: ChannelHandlerContext) {
        var wrote = false
        while inFlight.count < plan.window * sources.count, sendOne(context: context) { wrote = true }
        if wrote { context.flush() }
    }

    private func sendOne(context: ChannelHandlerContext) -> Bool {
        guard plan.claim() else { return false }
        var fix: GeneratedFix?
        for _ in 0..<sources.count where fix == nil {
            fix = sources[next].next()
            next = (next + 1) % sources.count
        }
        guard let fix else { return false }
        seq += 1
        inFlight[seq] = (ContinuousClock.now, fix.deviceId, fix.time)
        tally.sent += 1
        var payload = context.channel.allocator.buffer(capacity: 96)
        LinePayload.line(for: fix, seq: seq, into: &payload)
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
    var keepAcked = true
    var sockets = 64

    func run(sources: [FixSource]) async throws -> LoadResult {
        let server = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let socketCount = min(sockets, sources.count)
        var channels: [(any Channel, NIOLoopBound<DatagramDevicesHandler>)] = []
        for index in 0..<socketCount {
            let share = stride(from: index, to: sources.count, by: socketCount).map { sources[$0] }
            let channel = try await DatagramBootstrap(group: group)
                .channelOption(.socketOption(.so_rcvbuf), value: 4 * 1024 * 1024)
                .bind(host: host, port: 0).get()
            let handler = try await channel.eventLoop.submit {
                let handler = DatagramDevicesHandler(sources: share, plan: plan, server: server, keepAcked: keepAcked)
                try channel.pipeline.syncOperations.addHandler(handler)
                return NIOLoopBound(handler, eventLoop: channel.eventLoop)
            }.get()
            channels.append((channel, handler))
        }
        plan.begin()
        for (channel, _) in channels { channel.pipeline.fireUserInboundEventTriggered(StartSending()) }
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
