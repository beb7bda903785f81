import DispatchCore
import Foundation

/// A command as the dispatch log keeps it: what it was, and when the engine
/// carried it out, on the engine's time line (which continues across
/// restarts) and on the wall clock (for history and audit), with the
/// idempotency key it came with, so that whoever replays the log knows it
/// was answered.
struct LoggedCommand: Codable, Equatable, Sendable {
    /// The command.
    let command: DispatchCommand
    /// The engine time it ran at.
    let engineTime: Duration
    /// The wall-clock time it ran at.
    let wallTime: Date
    /// The key of the request it came with (scoped to the caller, the
    /// method and the path), nil when it came with none.
    var idempotencyKey: String? = nil
}

/// The engine's state as the dispatch log's snapshot keeps it, with the
/// engine time of the last command it includes.
struct LoggedState: Codable, Equatable, Sendable {
    /// The whole state.
    let snapshot: DispatchSnapshot
    /// The engine time of its last command.
    let engineTime: Duration
    /// The keyed commands of the past day, by key; nil in snapshots written
    /// before keys were kept.
    var answered: [String: AnsweredCommands.Answer]? = nil
}

/// How log entries and snapshots become bytes: JSON, so an operator can read
/// the log with the `sqlite3` shell, and so that a field added later
/// decodes old entries.
enum DispatchLogCoding {
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(type, from: data)
    }
}
