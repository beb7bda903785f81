import FixRecords
import NIOCore

/// Gathers the fixes every connection of one event loop submits during a
/// loop tick and hands them to the pipeline as one submission.
///
/// Under load many connections have a fix each per tick; one submission per
/// tick instead of one per connection saves a wake-up of the commit thread
/// and a hop back to the loop for each. Used only on its own event loop.
///
/// It also wakes the loop's connections that stopped reading because the
/// archive was behind, once it has room again: one timer per loop, not one
/// per waiting connection.
final class LoopSubmissionBatcher {
    private let eventLoop: any EventLoop
    private let pipeline: IngestPipeline
    private var fixes: [AcceptedFix] = []
    private var completions: [(Result<Void, any Error>) -> Void] = []
    private var flushScheduled = false
    private var waitingForRoom: [() -> Void] = []
    private var roomCheckScheduled = false

    /// How often a backlogged archive is looked at again for waiting connections.
    static var roomCheckInterval: TimeAmount { .milliseconds(5) }

    init(eventLoop: any EventLoop, pipeline: IngestPipeline) {
        self.eventLoop = eventLoop
        self.pipeline = pipeline
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

    /// True while the fixes waiting for the archive, this loop's not yet
    /// handed over included, exceed the pipeline's limit.
    var archiveIsBacklogged: Bool {
        pipeline.queuedFixCount + fixes.count > pipeline.maxQueuedFixes
    }

    /// Runs `resume` on this event loop once the archive is no longer backlogged.
    func whenArchiveHasRoom(_ resume: @escaping () -> Void) {
        eventLoop.preconditionInEventLoop()
        waitingForRoom.append(resume)
        scheduleRoomCheck()
    }

    private func scheduleRoomCheck() {
        guard !roomCheckScheduled else { return }
        roomCheckScheduled = true
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleTask(in: Self.roomCheckInterval) { loopBound.value.checkRoom() }
    }

    private func checkRoom() {
        roomCheckScheduled = false
        guard !archiveIsBacklogged else { return scheduleRoomCheck() }
        let waiting = waitingForRoom
        waitingForRoom = []
        for resume in waiting { resume() }
    }

    private func flush() {
        flushScheduled = false
        let batch = fixes
        let waiting = NIOLoopBound(completions, eventLoop: eventLoop)
        fixes = []
        completions = []
        let eventLoop = self.eventLoop
        pipeline.submit(batch) { result in
            eventLoop.execute {
                for completion in waiting.value { completion(result) }
            }
        }
    }
}

/// One ``LoopSubmissionBatcher`` per event loop of a group.
final class LoopSubmissionBatchers: Sendable {
    private let batchers: [ObjectIdentifier: NIOLoopBoundBox<LoopSubmissionBatcher>]

    init(group: any EventLoopGroup, pipeline: IngestPipeline) {
        var batchers: [ObjectIdentifier: NIOLoopBoundBox<LoopSubmissionBatcher>] = [:]
        for eventLoop in group.makeIterator() {
            batchers[ObjectIdentifier(eventLoop)] = .makeBoxSendingValue(
                LoopSubmissionBatcher(eventLoop: eventLoop, pipeline: pipeline), eventLoop: eventLoop)
        }
        self.batchers = batchers
    }

    /// The batcher of `eventLoop`; call only on that loop.
    func batcher(for eventLoop: any EventLoop) -> LoopSubmissionBatcher? {
        batchers[ObjectIdentifier(eventLoop)]?.value
    }
}
