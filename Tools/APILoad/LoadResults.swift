import Foundation
import Synchronization

/// Something of each of the load's users (a bearer token, a connection), by
/// username, shared by concurrent tasks.
final class ByUser<Value: Sendable>: Sendable {
    private let values = Mutex<[String: Value]>([:])

    func set(_ user: String, _ value: Value) { values.withLock { $0[user] = value } }

    /// The value of `user`; a user the load set up always has one.
    subscript(_ user: String) -> Value { values.withLock { $0[user]! } }
}

/// A count shared by concurrent tasks.
final class Counter: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

/// Each ride request of the burst: when it was sent, when and how HTTP
/// answered, and, with the push sockets, when its passenger first heard
/// of the ride over the socket.
final class Results: Sendable {
    private struct Request {
        var sent: ContinuousClock.Instant
        var answered: ContinuousClock.Instant
        var status: Int
        var ride: String?
    }

    private let requests = Mutex<[String: Request]>([:])

    func record(_ user: String, sent: ContinuousClock.Instant, answered: ContinuousClock.Instant, status: Int, ride: String?) {
        requests.withLock { $0[user] = Request(sent: sent, answered: answered, status: status, ride: ride) }
    }

    /// The rides opened whose passenger has not heard of them over the socket yet.
    func pendingSocketAnswers(_ push: PushListener) -> Int {
        requests.withLock { $0 }.filter { user, request in
            request.ride.map { push.firstAnswer(of: user, ride: $0) == nil } ?? false
        }.count
    }

    /// Prints the first-answer delays (HTTP and socket: p50, p95, p99,
    /// max, the share within 1 s and 3 s) and what was lost or told twice.
    func report(_ push: PushListener) {
        let all = requests.withLock { $0 }
        let opened = all.filter { $0.value.status == 201 && $0.value.ride != nil }
        let statuses = Dictionary(grouping: all.values, by: \.status).mapValues(\.count).sorted { $0.key < $1.key }
        print("HTTP answers by status: " + statuses.map { "\($0.key == 0 ? "no answer" : String($0.key)): \($0.value)" }.joined(separator: ", "))
        Self.printDelays("HTTP answer (offer made or queue place)", all.values.filter { $0.status != 0 }.map { $0.sent.duration(to: $0.answered) })
        var socketDelays: [Duration] = []
        var unheard: [String] = []
        var strays = 0
        for (user, request) in opened {
            guard let ride = request.ride else { continue }
            if let heard = push.firstAnswer(of: user, ride: ride) {
                socketDelays.append(request.sent.duration(to: heard))
            } else {
                unheard.append(user)
            }
            strays += push.rides(heardBy: user).subtracting([ride]).count
        }
        Self.printDelays("socket's first notice (offer or queued)", socketDelays)
        print("lost: \(all.count - all.values.filter { $0.status != 0 }.count) requests without an HTTP answer, \(unheard.count) opened rides never told over the socket\(unheard.isEmpty ? "" : " (\(unheard.prefix(5).joined(separator: ", "))...)")")
        print("told twice: \(strays) notices of a ride its passenger did not ask for (each passenger asked once, so a second ride would be a request handled twice)")
    }

    private static func printDelays(_ what: String, _ delays: [Duration]) {
        guard !delays.isEmpty else {
            print("\(what): none")
            return
        }
        let sorted = delays.sorted()
        func at(_ share: Double) -> String {
            let delay = sorted[min(sorted.count - 1, Int((Double(sorted.count) * share).rounded(.up)) - 1)]
            return String(format: "%.1f ms", Double(delay.components.seconds) * 1000 + Double(delay.components.attoseconds) / 1e15)
        }
        let withinOne = Double(sorted.filter { $0 <= .seconds(1) }.count) / Double(sorted.count) * 100
        let withinThree = Double(sorted.filter { $0 <= .seconds(3) }.count) / Double(sorted.count) * 100
        print("\(what), \(sorted.count) requests: p50 \(at(0.5)), p95 \(at(0.95)), p99 \(at(0.99)), max \(at(1)); "
              + String(format: "%.1f %% within 1 s, %.1f %% within 3 s", withinOne, withinThree))
    }
}
