import NIOCore

/// A device connection or UDP socket that sends one message when the pacer says so.
protocol PacedSender: AnyObject, SendableMetatype {
    /// Writes its next message without flushing; false when it has nothing left to send.
    func sendPaced() -> Bool
    /// Flushes what ``sendPaced()`` wrote.
    func flushPaced()
}

/// Sends one event loop's share of a fixed offered rate (`--rate`).
///
/// Every millisecond it writes the messages due since sending began,
/// round-robin over the loop's senders, then flushes each sender once. The
/// offered load is thus independent of how fast ACKs come back (open loop:
/// a slow server shows as latency, not as a lower send rate), and it costs
/// one timer per event loop instead of one per device, so that the
/// generator, sharing the cores with the server, spends its time on the
/// sockets. Used only on its own event loop.
final class LoopPacer {
    private let senders: [any PacedSender]
    private let messagesPerSecond: Double
    private let plan: LoadPlan
    private let start = ContinuousClock.now
    private var sentMessages = 0
    private var next = 0
    private var wrote: [Bool]

    /// Paces `senders` (all on one event loop) at `messagesPerSecond` in all, until `plan` is finished.
    init(senders: [any PacedSender], messagesPerSecond: Double, plan: LoadPlan) {
        self.senders = senders
        self.messagesPerSecond = messagesPerSecond
        self.plan = plan
        wrote = Array(repeating: false, count: senders.count)
    }

    /// Starts ticking on `eventLoop`, the loop every sender belongs to.
    func start(on eventLoop: any EventLoop) {
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(1)) { task in
            let pacer = loopBound.value
            pacer.tick()
            if pacer.plan.isFinished { task.cancel() }
        }
    }

    /// Sends what is due, one message per sender in turn, and flushes the senders that wrote.
    private func tick() {
        guard !senders.isEmpty else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // At most 10 ms worth per tick, so that a generator that fell behind still reads its ACKs.
        var due = min(Int(seconds * messagesPerSecond) - sentMessages, max(1, Int(messagesPerSecond / 100)))
        var idleInARow = 0
        while due > 0, idleInARow < senders.count {
            let index = next
            next = (next + 1) % senders.count
            if senders[index].sendPaced() {
                wrote[index] = true
                sentMessages += 1
                due -= 1
                idleInARow = 0
            } else {
                idleInARow += 1
            }
        }
        for index in senders.indices where wrote[index] {
            senders[index].flushPaced()
            wrote[index] = false
        }
    }
}

extension LoopPacer {
    /// One sender to pace: its event loop, the sender, and the messages per second it offers.
    struct Entry<Sender: PacedSender>: Sendable {
        var eventLoop: any EventLoop
        var sender: NIOLoopBound<Sender>
        var messagesPerSecond: Double
    }

    /// Starts one pacer per event loop over the senders on that loop.
    static func start<Sender: PacedSender>(_ entries: [Entry<Sender>], plan: LoadPlan) async throws {
        var byLoop: [ObjectIdentifier: [Entry<Sender>]] = [:]
        for entry in entries { byLoop[ObjectIdentifier(entry.eventLoop), default: []].append(entry) }
        for loopEntries in byLoop.values {
            let eventLoop = loopEntries[0].eventLoop
            try await eventLoop.submit {
                let pacer = LoopPacer(
                    senders: loopEntries.map(\.sender.value),
                    messagesPerSecond: loopEntries.reduce(0) { $0 + $1.messagesPerSecond }, plan: plan)
                pacer.start(on: eventLoop)
            }.get()
        }
    }
}
