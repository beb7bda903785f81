import Foundation
import Storage
import Synchronization
import TaxiDispatch

/// What one durable command told (SPEC D7): a notice of each of its events
/// for the dispatchers' live board, and the notices stored for the drivers
/// and passengers they concern, each with its key.
public struct CommandNotices: Sendable {
    /// Every event's notice, in order, for the board.
    public let board: [Notice]
    /// The notices stored for users, in order.
    public let personal: [PersonalNotice]

    /// The notices of `events`, the outcome of log entry `sequence`.
    init(sequence: Int64, events: [DispatchEvent], context: DispatchNotices.Context) {
        var board: [Notice] = []
        var personal: [PersonalNotice] = []
        board.reserveCapacity(events.count)
        for event in events {
            let (notice, recipients) = DispatchNotices.notice(of: event, in: context)
            board.append(notice)
            for recipient in recipients {
                let key = NotificationKey(sequence: sequence, index: personal.count)
                var stored = notice
                stored.id = key.description
                personal.append(PersonalNotice(recipient: recipient, key: key, notice: stored))
            }
        }
        self.board = board
        self.personal = personal
    }
}

/// A notice stored for one user, with its place among all notifications.
public struct PersonalNotice: Sendable {
    /// Whom it is for (``DispatchNotices/recipient(passenger:)``, ``DispatchNotices/recipient(taxi:)``).
    public let recipient: String
    /// Its place, which is also its id.
    public let key: NotificationKey
    /// The notice, its id set.
    public let notice: Notice
}

/// The notices of a command as the dispatcher hands them to the log's
/// writer: what the engine's state said of its events, taken on the
/// dispatcher; the notices themselves are worked out once, on the writer's
/// thread, for the write and then for publishing.
final class PendingNotices: Sendable {
    private let sequence: Int64
    private let events: [DispatchEvent]
    private let context: DispatchNotices.Context
    private let derived = Mutex<CommandNotices?>(nil)

    init(sequence: Int64, events: [DispatchEvent], context: DispatchNotices.Context) {
        self.sequence = sequence
        self.events = events
        self.context = context
    }

    /// The notices, worked out on first use.
    var notices: CommandNotices {
        derived.withLock { derived in
            if let derived { return derived }
            let notices = CommandNotices(sequence: sequence, events: events, context: context)
            derived = notices
            return notices
        }
    }
}
