import DispatchCore
import Foundation
import Storage
import Synchronization

/// What one durable command told (SPEC D7): a notice of each of its events
/// for the dispatchers' live board, and the notices stored for the drivers
/// and passengers they concern, each with its key.
///
/// The dispatcher takes what the notices need to know of the engine's state
/// as the command runs; the notices themselves are worked out on first use,
/// each list once: the users' on the log's writer thread, which stores them
/// in the command's transaction; the board's by whoever reads them (the
/// push layer), so that the writer every caller waits on derives only what
/// it stores.
public final class CommandNotices: Sendable {
    private let sequence: Int64
    private let events: [DispatchEvent]
    private let context: DispatchNotices.Context
    private let derivedBoard = Mutex<[Notice]?>(nil)
    private let derivedPersonal = Mutex<[PersonalNotice]?>(nil)

    /// The notices of `events`, the outcome of log entry `sequence`, in `context`.
    init(sequence: Int64, events: [DispatchEvent], context: DispatchNotices.Context) {
        self.sequence = sequence
        self.events = events
        self.context = context
    }

    /// Every event's notice, in order, for the board.
    public var board: [Notice] {
        derivedBoard.withLock { derived in
            if let derived { return derived }
            let board = events.map { DispatchNotices.notice(of: $0, in: context).notice }
            derived = board
            return board
        }
    }

    /// The notices stored for users, in order.
    public var personal: [PersonalNotice] {
        derivedPersonal.withLock { derived in
            if let derived { return derived }
            var personal: [PersonalNotice] = []
            for event in events where event.mayConcernAUser {
                let (notice, recipients) = DispatchNotices.notice(of: event, in: context)
                for recipient in recipients {
                    let key = NotificationKey(sequence: sequence, index: personal.count)
                    var stored = notice
                    stored.id = key.id
                    personal.append(PersonalNotice(recipient: recipient, key: key, notice: stored))
                }
            }
            derived = personal
            return personal
        }
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
