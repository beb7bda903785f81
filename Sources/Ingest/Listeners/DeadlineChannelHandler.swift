import NIOCore
import ServiceClock

/// A channel handler that closes its connection at a deadline: a
/// terminal's identification and idle deadlines here, an API request's in
/// the API. What the deadline does on each event is a
/// ``DeadlineStateMachine``; this extension carries it out with a task on
/// the channel's event loop and arms it when the connection opens and lifts
/// it when the connection closes or the handler leaves the pipeline, so
/// that each handler says only how long the first deadline is, when it
/// arms, moves or lifts it later, and what expiring means for it.
///
/// Time is the event loop's (`EventLoop.now`), the clock its timers run on,
/// so that a test on an `EmbeddedEventLoop` moves a deadline with
/// `advanceTime(by:)` instead of waiting for it.
package protocol DeadlineChannelHandler: ChannelInboundHandler {
    /// The handler's deadline and its pending timer, changed only by this extension.
    var deadline: ChannelDeadline { get set }

    /// How long after the connection opens its first deadline falls.
    var openingTimeout: TimeAmount { get }

    /// The deadline has passed on an open connection: close it (and count or mark why).
    func deadlineExpired(context: ChannelHandlerContext)
}

/// What a ``DeadlineChannelHandler`` holds of its deadline: where it stands
/// and the timer that fires it.
package struct ChannelDeadline {
    fileprivate var machine = DeadlineStateMachine<NIODeadline>()
    fileprivate var timer: Scheduled<Void>?

    /// A disarmed deadline.
    package init() {}
}

extension DeadlineChannelHandler {
    /// Arms the opening deadline when the handler joins a connection already open.
    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armDeadline(in: openingTimeout, context: context) }
    }

    /// Arms the opening deadline when the connection opens.
    package func channelActive(context: ChannelHandlerContext) {
        armDeadline(in: openingTimeout, context: context)
        context.fireChannelActive()
    }

    /// Lifts the deadline of a connection that closed.
    package func channelInactive(context: ChannelHandlerContext) {
        disarmDeadline()
        context.fireChannelInactive()
    }

    /// Lifts the deadline of a handler leaving the pipeline (its work done, or the connection torn down).
    package func handlerRemoved(context: ChannelHandlerContext) {
        disarmDeadline()
    }

    /// Arms the deadline `amount` from now unless one runs already (see ``DeadlineStateMachine/arm(at:)``).
    package func armDeadline(in amount: TimeAmount, context: ChannelHandlerContext) {
        guard case .startTimer(let instant) = deadline.machine.arm(at: context.eventLoop.now + amount) else { return }
        startTimer(at: instant, context: context)
    }

    /// Moves a running deadline to `amount` from now without a new timer (see ``DeadlineStateMachine/move(to:)``).
    package func moveDeadline(in amount: TimeAmount, context: ChannelHandlerContext) {
        deadline.machine.move(to: context.eventLoop.now + amount)
    }

    /// Lifts a running deadline and cancels its timer.
    package func disarmDeadline() {
        guard deadline.machine.disarm() == .cancelTimer else { return }
        deadline.timer?.cancel()
        deadline.timer = nil
    }

    private func startTimer(at instant: NIODeadline, context: ChannelHandlerContext) {
        let fire = NIOLoopBound({ self.timerFired(context: context) }, eventLoop: context.eventLoop)
        deadline.timer = context.eventLoop.scheduleTask(deadline: instant) { fire.value() }
    }

    /// A timer that fires on a connection already closed does nothing more.
    private func timerFired(context: ChannelHandlerContext) {
        deadline.timer = nil
        guard context.channel.isActive else { return }
        switch deadline.machine.timerFired(at: context.eventLoop.now) {
        case .expire: deadlineExpired(context: context)
        case .restartTimer(let instant): startTimer(at: instant, context: context)
        case .none: break
        }
    }
}
