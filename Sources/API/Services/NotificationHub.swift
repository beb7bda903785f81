import Accounts
import DispatchCore
import DispatchRuntime
import Fleet
import Foundation
import Logging
import ServiceClock
import ServiceLifecycle
import Storage

/// Hands the dispatch engine's notices to the push sockets that are open
/// (SPEC D7): each user's own notifications to that user's sockets, every
/// notice to the dispatchers' live board.
///
/// A user's notifications are stored with the command that told them, so
/// none is lost while no socket is open; a socket that opens first gets
/// what its user missed, oldest first, then the new ones, each once. A
/// notification counts as handed over once it was written to a socket or
/// fetched with `GET /v1/notifications`; the hub records that in batches
/// (every ``markInterval``), so after a crash a client may see again the
/// last fraction of a second of them, with the same ids.
public actor NotificationHub: Service {
    /// What a push socket is sent.
    enum Outgoing: Sendable {
        /// A user's stored notification.
        case personal(PersonalNotice)
        /// A notice for the dispatchers' board.
        case board(Notice)
        /// A JSON message of its own (the state a socket starts with).
        case message(Data)
        /// The last message: the socket is closed, for this reason.
        case close(PushClose)
    }

    /// One open socket: where its messages go, and for a user's socket, the
    /// newest notification it was given (nothing older is sent again).
    private struct Subscriber {
        let outgoing: AsyncStream<Outgoing>.Continuation
        var catchingUp: [PersonalNotice]?
        var lastKey: NotificationKey?
    }

    private let dispatcher: Dispatcher
    /// The live fleet, whose fixes of a taxi on its way a passenger's sockets are sent.
    private let fleet: FleetIndex?
    private let clock: any ServiceClock
    private let logger: Logger
    private var users: [String: [Int: Subscriber]] = [:]
    private var board: [Int: AsyncStream<Outgoing>.Continuation] = [:]
    /// Whose each open user socket is.
    private var recipientOfSocket: [Int: String] = [:]
    /// The session each socket was opened on, which it lives no longer than.
    private var sessionOfSocket: [Int: AuthenticatedSession] = [:]
    private var nextSocket = 0
    /// Whether the service stopped the hub: a socket opened now is closed at once.
    private var stopped = false
    private var unrecordedMarks: [String: NotificationKey] = [:]
    /// The passenger each passenger's socket follows the taxi of.
    private var passengerOfSocket: [Int: PassengerID] = [:]
    /// The time of the last taxi fix each such socket was sent.
    private var positionSentOfSocket: [Int: Date] = [:]

    /// How often the notifications handed over are recorded as such.
    public static let markInterval = Duration.milliseconds(200)
    /// How often, in the service's time, a passenger's sockets are sent
    /// the new fix of the taxi on its way, if it has one: a terminal
    /// reports every few seconds at most, so each fix goes out within a second.
    public static let positionInterval = Duration.seconds(1)
    /// How many messages a socket that does not read keeps before the
    /// oldest are dropped (a user's dropped notifications stay stored).
    public static let socketBufferSize = 10_000

    /// A hub for the notices of `dispatcher`, which sends a passenger's
    /// sockets the fixes `fleet` gets of the taxi on its way (none without it).
    public init(dispatcher: Dispatcher, fleet: FleetIndex? = nil, clock: any ServiceClock, logger: Logger) {
        self.dispatcher = dispatcher
        self.fleet = fleet
        self.clock = clock
        self.logger = logger
    }

    /// Delivers the dispatcher's notices until a graceful shutdown, recording
    /// what was handed over as it goes and once more at the end.
    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [dispatcher] in
                await cancelWhenGracefulShutdown {
                    for await notices in dispatcher.notices { await self.deliver(notices) }
                }
            }
            group.addTask { [clock] in
                try? await cancelWhenGracefulShutdown {
                    while !Task.isCancelled {
                        try await clock.sleep(for: Self.markInterval)
                        await self.recordMarks()
                        await self.closeExpiredSessions()
                    }
                }
            }
            group.addTask { [clock] in
                try? await cancelWhenGracefulShutdown {
                    while !Task.isCancelled {
                        try await clock.sleep(for: Self.positionInterval)
                        await self.sendTaxiPositions()
                    }
                }
            }
            await group.waitForAll()
        }
        await recordMarks()
        closeAll()
    }

    /// Opens a socket for `recipient`'s notifications on `session` (nil:
    /// none to end it): the ones stored and not yet handed over come first,
    /// then each new one as it is told; a passenger's socket (`following`)
    /// also gets each fix of the taxi on its way to the passenger's pickup.
    /// - Returns: the socket's number (for ``close(_:)``) and its messages.
    func openUserSocket(
        for recipient: String, session: AuthenticatedSession?, first: Data?, following passenger: PassengerID? = nil
    ) async -> (socket: Int, messages: AsyncStream<Outgoing>) {
        let (messages, outgoing) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingNewest(Self.socketBufferSize))
        let socket = nextSocket
        nextSocket += 1
        if stopped { return (socket, Self.closedAtOnce(outgoing, messages)) }
        sessionOfSocket[socket] = session
        passengerOfSocket[socket] = passenger
        if let first { outgoing.yield(.message(first)) }
        users[recipient, default: [:]][socket] = Subscriber(outgoing: outgoing, catchingUp: [], lastKey: nil)
        recipientOfSocket[socket] = recipient
        var missed: [PersonalNotice] = []
        var after: NotificationKey?
        repeat {
            let batch = (try? await dispatcher.undeliveredNotices(for: recipient, limit: 500)) ?? []
            let fresh = batch.filter { notice in after.map { notice.key > $0 } ?? true }
            missed += fresh
            after = fresh.last?.key ?? after
            if fresh.count < 500 { break }
        } while true
        guard var subscriber = users[recipient]?[socket] else { return (socket, messages) }
        let told = missed + (subscriber.catchingUp ?? []).filter { notice in missed.last.map { notice.key > $0.key } ?? true }
        for notice in told { outgoing.yield(.personal(notice)) }
        subscriber.lastKey = told.last?.key
        subscriber.catchingUp = nil
        users[recipient]?[socket] = subscriber
        return (socket, messages)
    }

    /// Opens a socket on the dispatchers' board on `session` (nil: none to
    /// end it): `first` (the state now), then every notice.
    func openBoardSocket(session: AuthenticatedSession?, first: Data) -> (socket: Int, messages: AsyncStream<Outgoing>) {
        let (messages, outgoing) = AsyncStream.makeStream(of: Outgoing.self, bufferingPolicy: .bufferingNewest(Self.socketBufferSize))
        let socket = nextSocket
        nextSocket += 1
        if stopped { return (socket, Self.closedAtOnce(outgoing, messages)) }
        sessionOfSocket[socket] = session
        outgoing.yield(.message(first))
        board[socket] = outgoing
        return (socket, messages)
    }

    /// `messages` holding nothing but the close of a stopping service.
    private static func closedAtOnce(
        _ outgoing: AsyncStream<Outgoing>.Continuation, _ messages: AsyncStream<Outgoing>
    ) -> AsyncStream<Outgoing> {
        outgoing.yield(.close(.serviceStopping))
        outgoing.finish()
        return messages
    }

    /// Sends `message` (a JSON text of the service's own, not an engine's
    /// decision, such as ``ZonesChangedJSON``) to every socket on the board.
    func tellBoard(_ message: Data) {
        for continuation in board.values { continuation.yield(.message(message)) }
    }

    /// Closes the sockets of every session `ends` tells of, as it is told.
    public nonisolated func closeSockets(onSessionsEndedBy ends: SessionEnds) {
        ends.observe { end in Task { await self.end(end) } }
    }

    /// Closes, telling why, every socket opened on a session that `end` ended.
    func end(_ end: SessionEnd) {
        let (ended, reason): ([Int], PushClose) = switch end {
        case .loggedOut(let hash): (sessionOfSocket.filter { $0.value.tokenHash == hash }.map(\.key), .loggedOut)
        case .accountDisabled(let id): (sessionOfSocket.filter { $0.value.account.id == id }.map(\.key), .accountDisabled)
        case .passwordChanged(let id, let kept):
            (sessionOfSocket.filter { $0.value.account.id == id && $0.value.tokenHash != kept }.map(\.key), .passwordChanged)
        case .accountChanged(let id): (sessionOfSocket.filter { $0.value.account.id == id }.map(\.key), .accountChanged)
        }
        for socket in ended { close(socket, telling: reason) }
    }

    /// Closes every socket whose session has expired by now.
    func closeExpiredSessions() {
        let now = clock.now
        for (socket, session) in sessionOfSocket where session.expiresAt <= now { close(socket, telling: .sessionExpired) }
    }

    /// Sends `reason` as a socket's last message, then forgets it.
    private func close(_ socket: Int, telling reason: PushClose) {
        board[socket]?.yield(.close(reason))
        if let recipient = recipientOfSocket[socket] { users[recipient]?[socket]?.outgoing.yield(.close(reason)) }
        close(socket)
    }

    /// Forgets a socket that closed.
    func close(_ socket: Int) {
        sessionOfSocket[socket] = nil
        passengerOfSocket[socket] = nil
        positionSentOfSocket[socket] = nil
        board[socket]?.finish()
        board[socket] = nil
        guard let recipient = recipientOfSocket.removeValue(forKey: socket) else { return }
        users[recipient]?[socket]?.outgoing.finish()
        users[recipient]?[socket] = nil
        if users[recipient]?.isEmpty == true { users[recipient] = nil }
    }

    /// Notes that `notice` was written to one of its recipient's sockets.
    func handedOver(_ notice: PersonalNotice) {
        if let mark = unrecordedMarks[notice.recipient], mark >= notice.key { return }
        unrecordedMarks[notice.recipient] = notice.key
    }

    /// The number of sockets open now, users' and board's.
    var openSockets: Int { board.count + users.values.map(\.count).reduce(0, +) }

    private func deliver(_ notices: CommandNotices) {
        for continuation in board.values {
            for notice in notices.board { continuation.yield(.board(notice)) }
        }
        for personal in notices.personal {
            guard let sockets = users[personal.recipient] else { continue }
            for (socket, var subscriber) in sockets {
                if subscriber.catchingUp != nil {
                    subscriber.catchingUp?.append(personal)
                } else if subscriber.lastKey.map({ personal.key > $0 }) ?? true {
                    subscriber.outgoing.yield(.personal(personal))
                    subscriber.lastKey = personal.key
                }
                users[personal.recipient]?[socket] = subscriber
            }
        }
    }

    /// Sends each passenger's sockets the newest fix of the taxi on its way
    /// to (or waiting at) the passenger's pickup, when that fix is newer
    /// than the last one sent: `taxi_position`, told to no one else and not
    /// stored (the ride's `GET` gives the latest position to a socket that opens later).
    func sendTaxiPositions() async {
        guard let fleet, !passengerOfSocket.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let now = clock.now
        for passenger in Set(passengerOfSocket.values) {
            guard let view = await dispatcher.openRide(of: passenger) else { continue }
            switch view.request.phase {
            case .assigned, .arrived: break
            case .waiting, .offered, .aboard: continue
            }
            guard let taxi = view.request.phase.taxi, let fixTime = fleet.latestPosition(of: taxi)?.time else { continue }
            // Only the sockets that have not had this fix yet; the message is made for them alone.
            let behind = passengerOfSocket.filter { socket, follower in
                follower == passenger && positionSentOfSocket[socket].map { fixTime > $0 } ?? true
            }.map(\.key)
            guard !behind.isEmpty else { continue }
            let ride = RideJSON(view, now: now, fleet: fleet)
            guard let position = ride.taxi, let message = try? encoder.encode(TaxiPositionJSON(ride: ride, taxi: position)) else { continue }
            for socket in behind {
                guard let recipient = recipientOfSocket[socket], let subscriber = users[recipient]?[socket] else { continue }
                subscriber.outgoing.yield(.message(message))
                positionSentOfSocket[socket] = fixTime
            }
        }
    }

    /// Records at once what was handed over so far, so that a fetch that
    /// follows does not hand it over again.
    func recordMarks() async {
        guard !unrecordedMarks.isEmpty else { return }
        let marks = unrecordedMarks.map { (recipient: $0.key, through: $0.value) }
        unrecordedMarks = [:]
        do {
            try await dispatcher.markDelivered(marks)
        } catch {
            logger.warning("could not record \(marks.count) users' notifications as handed over (they may be sent again): \(error)")
        }
    }

    /// Closes every socket telling that the service stops, and any opened
    /// from now on at once: the API server, which stops after the hub, waits
    /// for its connections, so none may stay open.
    private func closeAll() {
        stopped = true
        for socket in Set(board.keys).union(recipientOfSocket.keys) { close(socket, telling: .serviceStopping) }
    }
}
