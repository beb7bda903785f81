/// The rules of one deadline that closes a connection (a request that must
/// arrive whole in time, a terminal that must identify itself, then keep
/// reporting), apart from the timer that carries it out: a value that is
/// told each event with the time it happened and answers what to do, so
/// that the rules are the same for every handler that holds such a deadline
/// and are tested without a network, an event loop or real time.
///
/// `Instant` is whichever clock's time the owner reads: an event loop's
/// `NIODeadline` in a channel handler, `ServiceClock.uptime` in a test.
///
/// A deadline is disarmed until armed; armed, it runs to the instant it was
/// armed at or last moved to; disarmed again, it waits to be armed anew;
/// once it has expired it stays expired, because the connection it closed
/// is not reopened.
public struct DeadlineStateMachine<Instant: Comparable & Sendable>: Sendable {
    /// Where the deadline stands.
    public enum State: Sendable, Equatable {
        /// No deadline runs (not started, or lifted while the other side is
        /// not expected to send); nothing can expire.
        case disarmed
        /// The connection is due to close at this instant; a timer is pending.
        case armed(Instant)
        /// The deadline passed and the connection was closed for it; nothing arms it again.
        case expired
    }

    /// What the owner does when asked to arm the deadline.
    public enum ArmAction: Sendable, Equatable {
        /// Start a timer that fires at this instant.
        case startTimer(at: Instant)
        /// Nothing: a deadline already runs (it does not move), or it has expired.
        case none
    }

    /// What the owner does when asked to lift the deadline.
    public enum DisarmAction: Sendable, Equatable {
        /// Cancel the pending timer.
        case cancelTimer
        /// Nothing: no timer is pending.
        case none
    }

    /// What the owner does when its timer fires.
    public enum TimerAction: Sendable, Equatable {
        /// The deadline has passed: close the connection (and count or mark why).
        case expire
        /// The deadline was moved later: start a timer again, for this instant.
        case restartTimer(at: Instant)
        /// Nothing: the deadline was lifted or has expired already.
        case none
    }

    /// Where the deadline stands now.
    public private(set) var state: State = .disarmed

    /// A disarmed deadline.
    public init() {}

    /// Starts the deadline at `deadline` if none runs; one that runs keeps
    /// its instant, so that what arrives in the meantime cannot put it off
    /// (a slow client's drip), and one that has expired stays expired.
    public mutating func arm(at deadline: Instant) -> ArmAction {
        guard case .disarmed = state else { return .none }
        state = .armed(deadline)
        return .startTimer(at: deadline)
    }

    /// Moves a running deadline to `deadline`, earlier or later, without a
    /// new timer: the pending one, when it fires, starts another for the
    /// new instant if that is still ahead. So an idle deadline that every
    /// read puts off costs a timer only when one fires; a deadline moved
    /// before the pending timer is found passed when that timer fires. A
    /// deadline that does not run is left as it is.
    public mutating func move(to deadline: Instant) {
        guard case .armed = state else { return }
        state = .armed(deadline)
    }

    /// Lifts a running deadline (the other side is not expected to send
    /// until the owner arms it again); an expired one stays expired.
    public mutating func disarm() -> DisarmAction {
        guard case .armed = state else { return .none }
        state = .disarmed
        return .cancelTimer
    }

    /// The owner's timer fired at `now`: the deadline expires if its instant
    /// has come, or is to be waited for again if it was moved later.
    public mutating func timerFired(at now: Instant) -> TimerAction {
        guard case .armed(let deadline) = state else { return .none }
        guard deadline <= now else { return .restartTimer(at: deadline) }
        state = .expired
        return .expire
    }
}
