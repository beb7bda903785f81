import DispatchCore
import Foundation

/// The commands that came with an idempotency key, by key, with what the
/// engine decided: a command sent again with the same key (a client that
/// retried after a timeout, or on another node after the deciding one
/// died) is answered with the first one's decision instead of being
/// carried out twice. The keys travel in the dispatch log's entries, so
/// every node, and the dispatcher after a restart, knows them; a day's
/// worth is kept.
struct AnsweredCommands: Sendable {
    /// What one keyed command decided, and when.
    struct Answer: Sendable, Codable, Equatable {
        let events: [DispatchEvent]
        let wallTime: Date
        /// The promise of its entry being written, while this dispatcher
        /// wrote it: a second request with the same key waits for it as the
        /// first does. Nil for what was read from the log.
        var durability: DurabilityPromise?

        private enum CodingKeys: String, CodingKey {
            case events, wallTime
        }

        /// The same decision at the same time, whatever is left of its writing.
        static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.events == rhs.events && lhs.wallTime == rhs.wallTime
        }
    }

    /// The answers, by key.
    private(set) var answers: [String: Answer] = [:]
    private var nextPruning = Date.distantPast

    /// How long a key is remembered: a day, as clients' retry windows go.
    static let retention: TimeInterval = 86_400

    /// Nothing answered yet.
    init() {}

    /// The answers a snapshot kept.
    init(restoring answers: [String: Answer]) {
        self.answers = answers
    }

    /// What the command that came with `key` decided; nil when none did.
    subscript(key: String) -> Answer? { answers[key] }

    /// Remembers that the command with `key` decided `events` at `wallTime`;
    /// `durability`, when given, is the promise of its entry being written.
    /// Once every ten minutes, forgets the keys older than ``retention``.
    mutating func remember(_ key: String, events: [DispatchEvent], at wallTime: Date, durability: DurabilityPromise? = nil) {
        answers[key] = Answer(events: events, wallTime: wallTime, durability: durability)
        guard wallTime >= nextPruning else { return }
        let cutoff = wallTime.addingTimeInterval(-Self.retention)
        answers = answers.filter { $0.value.wallTime >= cutoff }
        nextPruning = wallTime.addingTimeInterval(600)
    }
}
