import NIOCore

/// Gathers the fixes every connection of one event loop submits during a
/// loop tick and hands them to the sink as one submission.
///
/// Under load many connections have a fix each per tick; one submission per
/// tick instead of one per connection saves a wake-up of the commit thread
/// and a hop back to the loop for each. Used only on its own event loop.
final class LoopSubmissionBatcher {
    private let eventLoop: any EventLoop
    private let sink: any FixSink
    private var fixes: [AcceptedFix] = []
    private var completions: [(Result<Void, any Error>) -> Void] = []
    private var flushScheduled = false

    init(eventLoop: any EventLoop, sink: any FixSink) {
        self.eventLoop = eventLoop
        self.sink = sink
    }

    /// Queues `fixes`; `completion` runs on this event loop once they are durable (or failed).
    func submit(_ fixes: [AcceptedFix], completion: @escaping (Result<Void, any Error>) -> Void) {
        eventLoop.preconditionInEventLoop()
        self.fixes += fixes
        completions.append(completion)
        guard !flushScheduled else { return }
        flushScheduled = true
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.execute { loopBound.value.flush() }
    }

    private func flush() {
        flushScheduled = false
        let batch = fixes
        let waiting = NIOLoopBound(completions, eventLoop: eventLoop)
        fixes = []
        completions = []
        let eventLoop = self.eventLoop
        sink.submit(batch) { result in
            eventLoop.execute {
                for completion in waiting.value { completion(result) }
            }
        }
    }
}

/// One ``LoopSubmissionBatcher`` per event loop of a group.
final class LoopSubmissionBatchers: Sendable {
    private let batchers: [ObjectIdentifier: NIOLoopBoundBox<LoopSubmissionBatcher>]

    init(group: any EventLoopGroup, sink: any FixSink) {
        var batchers: [ObjectIdentifier: NIOLoopBoundBox<LoopSubmissionBatcher>] = [:]
        for eventLoop in group.makeIterator() {
            batchers[ObjectIdentifier(eventLoop)] = .makeBoxSendingValue(
                LoopSubmissionBatcher(eventLoop: eventLoop, sink: sink), eventLoop: eventLoop)
        }
        self.batchers = batchers
    }

    /// The batcher of `eventLoop`; call only on that loop.
    func batcher(for eventLoop: any EventLoop) -> LoopSubmissionBatcher? {
        batchers[ObjectIdentifier(eventLoop)]?.value
    }
}
