import Foundation
import ServiceClock
import Testing

/// The deadline's rules on a manual clock: what arming, moving, lifting and
/// a timer firing do in each state, as the connection handlers rely on.
@Suite(.timeLimit(.minutes(20))) struct DeadlineStateMachineTests {
    typealias Machine = DeadlineStateMachine<Duration>

    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))

    /// Armed, the deadline asks for a timer and expires once its instant
    /// has come, not before; expired, it stays so.
    @Test func anArmedDeadlineExpiresWhenItsInstantHasCome() {
        var machine = Machine()
        #expect(machine.state == .disarmed)
        #expect(machine.arm(at: clock.uptime + .seconds(30)) == .startTimer(at: .seconds(30)))
        #expect(machine.state == .armed(.seconds(30)))
        clock.advance(by: .seconds(29))
        #expect(machine.timerFired(at: clock.uptime) == .restartTimer(at: .seconds(30)), "a timer early on its clock waits again")
        clock.advance(by: .seconds(1))
        #expect(machine.timerFired(at: clock.uptime) == .expire)
        #expect(machine.state == .expired)
        #expect(machine.timerFired(at: clock.uptime) == .none)
    }

    /// Arming a deadline that runs neither moves it nor starts a second
    /// timer: a slow client's drip cannot put it off.
    @Test func armingARunningDeadlineLeavesIt() {
        var machine = Machine()
        _ = machine.arm(at: .seconds(30))
        clock.advance(by: .seconds(20))
        #expect(machine.arm(at: clock.uptime + .seconds(30)) == .none)
        #expect(machine.state == .armed(.seconds(30)))
    }

    /// Lifted, the deadline cancels its timer and can be armed anew, from
    /// then (a request read whole, the next counted from its response).
    @Test func aLiftedDeadlineCanBeArmedAgain() {
        var machine = Machine()
        _ = machine.arm(at: .seconds(30))
        clock.advance(by: .seconds(10))
        #expect(machine.disarm() == .cancelTimer)
        #expect(machine.state == .disarmed)
        #expect(machine.disarm() == .none, "no timer left to cancel")
        #expect(machine.timerFired(at: .seconds(30)) == .none, "a timer that fires all the same does nothing")
        clock.advance(by: .seconds(25))
        #expect(machine.arm(at: clock.uptime + .seconds(30)) == .startTimer(at: .seconds(65)))
    }

    /// A deadline moved later costs no timer until the pending one fires,
    /// which then waits for the new instant (an idle timeout each read puts off).
    @Test func aDeadlineMovedLaterIsWaitedForWhenTheTimerFires() {
        var machine = Machine()
        _ = machine.arm(at: .seconds(30))
        clock.advance(by: .seconds(20))
        machine.move(to: clock.uptime + .seconds(900))
        #expect(machine.state == .armed(.seconds(920)))
        clock.advance(by: .seconds(10))
        #expect(machine.timerFired(at: clock.uptime) == .restartTimer(at: .seconds(920)))
        clock.advance(by: .seconds(890))
        #expect(machine.timerFired(at: clock.uptime) == .expire)
    }

    /// A deadline moved before the pending timer is found passed when that
    /// timer fires, not earlier: the timer is not moved.
    @Test func aDeadlineMovedEarlierExpiresWhenThePendingTimerFires() {
        var machine = Machine()
        _ = machine.arm(at: .seconds(30))
        machine.move(to: .seconds(5))
        clock.advance(by: .seconds(30))
        #expect(machine.timerFired(at: clock.uptime) == .expire)
    }

    /// Neither a lifted deadline nor an expired one is moved, and an
    /// expired one is neither armed nor lifted again: its connection is closed.
    @Test func onlyARunningDeadlineMoves() {
        var lifted = Machine()
        lifted.move(to: .seconds(5))
        #expect(lifted.state == .disarmed)

        var expired = Machine()
        _ = expired.arm(at: .seconds(1))
        clock.advance(by: .seconds(1))
        #expect(expired.timerFired(at: clock.uptime) == .expire)
        expired.move(to: .seconds(60))
        #expect(expired.arm(at: .seconds(60)) == .none)
        #expect(expired.disarm() == .none)
        #expect(expired.state == .expired)
    }
}
