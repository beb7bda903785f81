import Foundation
import NIOCore
import NIOPosix

/// Tells a device's handler to start sending.
struct StartSending {}

/// One simulated terminal on its own TCP connection: sends line-protocol
/// fixes (paced by --rate, or keeping --window in flight) and times each ACK.
final class DeviceConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var source: FixSource
    private let plan: LoadPlan
    private let keepAcked: Bool
    private var seq: UInt64 = 0
    private var inFlight: [UInt64: (sentAt: ContinuousClock.Instant, time: Date)] = [:]
    private var remainder: [UInt8] = []
    private var timer: RepeatedTask?
    private(set) var tally = DeviceTally()

    init(source: FixSource, plan: LoadPlan, keepAcked: Bool) {
        self.source = source
        self.plan = plan
        self.keepAcked = keepAcked
    }

    var outstanding: Int { inFlight.count }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is StartSending else { return context.fireUserInboundEventTriggered(event) }
        if plan.ratePerDevice > 0 {
            let period = TimeAmount.nanoseconds(Int64(1e9 / plan.ratePerDevice))
            let jitter = TimeAmount.nanoseconds(Int64.random(in: 0..<max(period.nanoseconds, 1)))
            let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleRepeatedTask(initialDelay: jitter, delay: period) { task in
                let (handler, context) = loopBound.value
                if !handler.sendOne(context: context) { task.cancel() }
                context.flush()
            }
        } else {
            fillWindow(context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let now = ContinuousClock.now
        for sequence in LinePayload.acknowledgedSequences(in: Array(buffer.readableBytesView), remainder: &remainder) {
            guard let sent = inFlight.removeValue(forKey: sequence) else { continue }
            let latency = now - sent.sentAt
            tally.latenciesNanos.append(latency.components.seconds * 1_000_000_000 + latency.components.attoseconds / 1_000_000_000)
            if keepAcked { tally.acked.append((source.deviceId, sequence, sent.time)) }
        }
        if plan.ratePerDevice == 0 { fillWindow(context: context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func fillWindow(context: ChannelHandlerContext) {
        var wrote = false
        while inFlight.count < plan.window, sendOne(context: context) { wrote = true }
        if wrote { context.flush() }
    }

    /// Writes the next fix if the plan allows; false when done.
    private func sendOne(context: ChannelHandlerContext) -> Bool {
        guard plan.claim(), let fix = source.next() else { return false }
        seq += 1
        inFlight[seq] = (ContinuousClock.now, fix.time)
        tally.sent += 1
        var payload = context.channel.allocator.buffer(capacity: 96)
        LinePayload.line(for: fix, seq: seq, into: &payload)
        context.write(wrapOutboundOut(payload), promise: nil)
        return true
    }
}

/// Runs the TCP load: connects every device, sends, drains, collects tallies.
struct TCPLoad {
    let group: any EventLoopGroup
    let host: String
    let port: Int
    let plan: LoadPlan
    var keepAcked = true

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
                        let handler = try await channel.eventLoop.submit {
                            let handler = DeviceConnectionHandler(source: source, plan: plan, keepAcked: keepAcked)
                            try channel.pipeline.syncOperations.addHandler(handler)
                            return NIOLoopBound(handler, eventLoop: channel.eventLoop)
                        }.get()
                        return (channel, handler)
                    }
                }
                for try await connection in tasks { connections.append(connection) }
            }
        }
        print("connected \(connections.count) devices in \(ContinuousClock.now - startedAt)")
        plan.begin()
        for (channel, _) in connections { channel.pipeline.fireUserInboundEventTriggered(StartSending()) }
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
