import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// The `/v1/push` sockets of the simulated users: when each opened (its
/// `state` message arrived) and when each passenger first heard of a ride
/// (an `offer` or a `queued` notice), with every ride each passenger heard of.
final class PushListener: Sendable {
    private struct Heard {
        var opened: ContinuousClock.Instant?
        var firstAnswer: [String: ContinuousClock.Instant] = [:]
        var answers: [String: Int] = [:]
    }

    private let heard = Mutex<[String: Heard]>([:])
    private let tasks = Mutex<[Task<Void, Never>]>([])
    let port: Int

    init(port: Int) {
        self.port = port
    }

    /// Opens the socket of `user` with `token`, in the background.
    func open(user: String, token: String) {
        let task = Task { [self] in
            _ = try? await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(self.port)/v1/push?token=\(token)", logger: Logger(label: "apiload")
            ) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    guard case .text(let text) = message else { continue }
                    let now = ContinuousClock.now
                    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                          let kind = object["kind"] as? String else { continue }
                    self.heard.withLock { heard in
                        switch kind {
                        case "state":
                            heard[user, default: Heard()].opened = now
                        case "offer", "queued":
                            guard let ride = object["rideId"] as? String else { return }
                            heard[user, default: Heard()].answers[ride, default: 0] += 1
                            if heard[user]?.firstAnswer[ride] == nil { heard[user]?.firstAnswer[ride] = now }
                        default:
                            break
                        }
                    }
                }
            }
        }
        tasks.withLock { $0.append(task) }
    }

    /// How many sockets have received their `state`.
    var openCount: Int { heard.withLock { $0.values.filter { $0.opened != nil }.count } }

    /// When `user` first heard of `ride`, nil when not (yet).
    func firstAnswer(of user: String, ride: String) -> ContinuousClock.Instant? {
        heard.withLock { $0[user]?.firstAnswer[ride] }
    }

    /// The rides `user` heard an offer or a queue place of.
    func rides(heardBy user: String) -> Set<String> {
        heard.withLock { Set($0[user].map { Array($0.firstAnswer.keys) } ?? []) }
    }

    /// Closes every socket.
    func closeAll() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}
