import Foundation
import Logging
import Metrics
import ServiceClock
import Storage
import Synchronization
import Testing
@testable import Mail

/// The outbox's delivery on a manual clock: sent once, a transient failure
/// tried again later with growing pauses, a refusal given up at once, and
/// an e-mail too old to be of use not sent at all.
@Suite(.timeLimit(.minutes(20))) struct OutboxDeliveryTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// A relay that answers each recipient as told and records what it took.
    final class Relay: Sendable {
        let answers: Mutex<[String: SMTPError]> = Mutex([:])
        let taken: Mutex<[String]> = Mutex([])

        func send(_ message: EmailMessage, _ date: Date) throws(SMTPError) {
            if let error = answers.withLock({ $0[message.to] }) { throw error }
            taken.withLock { $0.append(message.to) }
        }
    }

    @Test func eachEmailIsSentOnceRetriedWhenTransientAndGivenUpWhenRefused() async throws {
        let store = InMemoryAccountStore()
        let clock = ManualClock(now: Self.start)
        let relay = Relay()
        relay.answers.withLock {
            $0["busy@example.org"] = .transient("the relay refused RCPT TO busy@example.org: 451 try later")
            $0["nobody@example.org"] = .permanent("the relay refused RCPT TO nobody@example.org: 550 no such user")
        }
        let delivery = OutboxDelivery(store: store, clock: clock, logger: Logger(label: "test"), metrics: NOOPMetricsHandler.instance) {
            message, date throws(SMTPError) in try relay.send(message, date)
        }
        for to in ["ada@example.org", "busy@example.org", "nobody@example.org"] {
            try await store.send(EmailMessage(to: to, subject: "Hello", body: "text"), at: clock.now)
        }
        let first = try await delivery.deliverDue()
        #expect(first.sent == 1 && first.retried == 1 && first.failed == 1)
        #expect(relay.taken.withLock { $0 } == ["ada@example.org"])
        let states = try await store.outbox(limit: 10).reduce(into: [String: EmailDelivery]()) { $0[$1.message.to] = $1.delivery }
        #expect(states["ada@example.org"]?.state == .sent && states["ada@example.org"]?.sentAt == Self.start)
        #expect(states["nobody@example.org"]?.state == .failed)
        #expect(states["nobody@example.org"]?.lastError?.contains("550") == true)
        #expect(states["busy@example.org"]?.state == .queued && states["busy@example.org"]?.attempts == 1)
        #expect(states["busy@example.org"]?.nextAttemptAt == Self.start.addingTimeInterval(30))

        #expect(try await delivery.deliverDue() == (0, 0, 0), "nothing is due before the pause ends")
        clock.advance(by: .seconds(30))
        #expect(try await delivery.deliverDue().retried == 1)
        let second = try #require(try await store.outbox(limit: 10).first { $0.message.to == "busy@example.org" })
        #expect(second.delivery.nextAttemptAt == clock.now.addingTimeInterval(60), "the pause doubles")
        relay.answers.withLock { $0["busy@example.org"] = nil }
        clock.advance(by: .seconds(60))
        #expect(try await delivery.deliverDue().sent == 1)
        #expect(relay.taken.withLock { $0 } == ["ada@example.org", "busy@example.org"], "each e-mail reaches the relay once")
    }

    @Test func anEmailTooOldIsGivenUpUnsent() async throws {
        let store = InMemoryAccountStore()
        let clock = ManualClock(now: Self.start)
        let relay = Relay()
        let delivery = OutboxDelivery(store: store, clock: clock, logger: Logger(label: "test"), metrics: NOOPMetricsHandler.instance) {
            message, date throws(SMTPError) in try relay.send(message, date)
        }
        try await store.send(EmailMessage(to: "late@example.org", subject: "Confirm", body: "token"), at: clock.now)
        clock.advance(by: .seconds(25 * 3600))
        #expect(try await delivery.deliverDue().failed == 1)
        #expect(relay.taken.withLock { $0 }.isEmpty)
        #expect(try await store.outbox(limit: 1).first?.delivery.lastError?.contains("24 h") == true)
    }

    @Test func thePausesGrowToAnHour() {
        #expect([1, 2, 3, 4, 8, 20].map(OutboxDelivery.pause(after:)) == [30, 60, 120, 240, 3600, 3600])
    }
}
