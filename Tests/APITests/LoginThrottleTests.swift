import Foundation
import HTTPTypes
import ServiceClock
import Testing
@testable import API

/// Password guessing is slowed per (username, address): the guessed user
/// logs in from elsewhere as usual, and the throttle forgets idle pairs.
@Suite(.timeLimit(.minutes(20))) struct LoginThrottleTests {
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))

    private func fail(_ throttle: LoginThrottle, _ times: Int, username: String = "tx000004", address: String = "203.0.113.9") {
        for _ in 0..<times { throttle.failed(username: username, address: address) }
    }

    @Test func guessesFromOneAddressDoNotLockTheUserOutElsewhere() throws {
        let throttle = LoginThrottle(clock: clock)
        fail(throttle, 200)
        #expect(throws: Problem.self) { try throttle.check(username: "tx000004", address: "203.0.113.9") }
        #expect(throws: Problem.self) { try throttle.check(username: "TX000004", address: "203.0.113.9") }
        try throttle.check(username: "tx000004", address: "198.51.100.7")
        try throttle.check(username: "tx000005", address: "203.0.113.9")
    }

    @Test func theWaitDoublesUpToFifteenMinutes() throws {
        let throttle = LoginThrottle(clock: clock)
        fail(throttle, LoginThrottle.freeFailures - 1)
        try throttle.check(username: "tx000004", address: "203.0.113.9")
        var waits: [Int] = []
        for _ in 0..<12 {
            fail(throttle, 1)
            do {
                try throttle.check(username: "tx000004", address: "203.0.113.9")
            } catch let problem as Problem {
                waits.append(Int(problem.headers[.retryAfter] ?? "") ?? -1)
            }
            clock.advance(by: .seconds(Int64(waits.last ?? 0)))
        }
        #expect(waits == [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900])
    }

    @Test func aSuccessClearsThePair() throws {
        let throttle = LoginThrottle(clock: clock)
        fail(throttle, 9)
        throttle.succeeded(username: "tx000004", address: "203.0.113.9")
        try throttle.check(username: "tx000004", address: "203.0.113.9")
    }

    /// 1,000 pairs with 60 KB usernames are kept by a hash each, and
    /// forgotten once idle for an hour.
    @Test func pairsAreKeptByAHashAndForgottenWhenIdle() throws {
        let throttle = LoginThrottle(clock: clock)
        for number in 0..<1_000 {
            fail(throttle, 1, username: String(repeating: "u", count: 60_000) + "\(number)", address: "10.0.0.\(number % 10)")
        }
        #expect(throttle.rememberedPairs == 1_000)
        clock.advance(by: LoginThrottle.idleLifetime)
        try throttle.check(username: "someone", address: "10.0.0.1")
        #expect(throttle.rememberedPairs == 0)
    }
}
