import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOWebSocket
import ServiceClock
import Storage

/// `/v1/notifications` and `/v1/push` (SPEC D7): a user's notifications,
/// fetched or pushed, and the dispatchers' live board.
///
/// `GET /v1/push` upgraded to a WebSocket (token in `Authorization:
/// Bearer` or, for browsers, `?token=`) first sends a `state` message (a
/// passenger's open ride, a driver's taxi, or for dispatchers and
/// administrators the fleet and every zone's queues), then a passenger's or
/// driver's missed notifications, then each notice as it is told. Without
/// the upgrade the route answers 426.
struct NotificationsController: Sendable {
    let dispatcher: Dispatcher
    let hub: NotificationHub
    let fleet: FleetIndex
    let clock: any ServiceClock

    /// Who has notifications of their own.
    static let recipients: Set<Role> = [.passenger, .driver]
    /// Who may open a push socket: users with notifications, and the board's watchers.
    static let pushers: Set<Role> = [.passenger, .driver, .dispatcher, .administrator]
    /// The most notifications one `GET /v1/notifications` hands over.
    static let maximumFetch = 500

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: fetch)
    }

    /// `GET /v1/push` on the HTTP router (answers 426) or on the WebSocket router (upgrades).
    func addPushRoutes(http: RouterGroup<APIRequestContext>?, webSocket: RouterGroup<APIRequestContext>?) {
        http?.get(use: upgradeRequired)
        webSocket?.ws(
            shouldUpgrade: { _, context in
                _ = try context.requireCaller(in: Self.pushers)
                return .upgrade([:])
            },
            onUpgrade: { inbound, outbound, context in
                guard let caller = context.requestContext.caller else { return }
                let opened = try await open(for: caller)
                defer { Task { await hub.close(opened.socket) } }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await _ in inbound {}
                    }
                    group.addTask {
                        for await message in opened.messages {
                            switch message {
                            case .personal(let personal):
                                try await outbound.write(.text(String(decoding: try personal.notice.json(), as: UTF8.self)))
                                await hub.handedOver(personal)
                            case .board(let notice):
                                try await outbound.write(.text(String(decoding: try notice.json(), as: UTF8.self)))
                            case .message(let data):
                                try await outbound.write(.text(String(decoding: data, as: UTF8.self)))
                            case .close(let reason):
                                try await outbound.close(WebSocketErrorCode(codeNumber: Int(reason.code)), reason: reason.reason)
                                return
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            })
    }

    /// `GET /v1/notifications[?limit=N]`: the caller's notifications not yet
    /// handed over (by socket or by an earlier fetch), oldest first; each
    /// is handed over once.
    @Sendable func fetch(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: Self.recipients)
        let limit = try request.queryCount("limit", in: 1...Self.maximumFetch, default: Self.maximumFetch)
        let recipient = Self.recipient(of: caller)
        await hub.recordMarks()
        let notices = try await dispatcher.undeliveredNotices(for: recipient, limit: limit)
        if let last = notices.last {
            try await dispatcher.markDelivered([(recipient: recipient, through: last.key)])
        }
        return try JSONResponse.ok(NotificationsJSON(notifications: notices.map(\.notice)))
    }

    /// `GET /v1/push` without a WebSocket upgrade.
    @Sendable func upgradeRequired(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: Self.pushers)
        throw Problem(status: .upgradeRequired, detail: "GET /v1/push is a WebSocket: connect with a WebSocket client (Upgrade: websocket)")
    }

    /// The recipient a passenger's or driver's notifications are stored for.
    static func recipient(of caller: Caller) -> String {
        if let taxi = caller.taxi { return DispatchNotices.recipient(taxi: taxi) }
        return DispatchNotices.recipient(passenger: caller.passenger) ?? "passenger:" + caller.username
    }

    /// Registers the socket with the hub, with the state it starts from.
    private func open(for caller: Caller) async throws -> (socket: Int, messages: AsyncStream<NotificationHub.Outgoing>) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let now = clock.now
        switch caller.role {
        case .passenger:
            let ride = await dispatcher.openRide(of: caller.passenger).map { RideJSON($0, now: now, fleet: fleet) }
            return await hub.openUserSocket(
                for: Self.recipient(of: caller), session: caller.session, first: try encoder.encode(PushStateJSON(ride: ride)),
                following: caller.passenger)
        case .driver:
            let taxi = caller.taxi ?? TaxiID(caller.username)
            let driver = DriverJSON(taxi, view: await dispatcher.driver(taxi), now: now)
            return await hub.openUserSocket(
                for: Self.recipient(of: caller), session: caller.session, first: try encoder.encode(PushStateJSON(driver: driver)))
        default:
            let records = await dispatcher.taxiRecords()
            let taxis = fleet.entries(now: now).map { entry in
                FleetTaxiJSON(position: TaxiJSON(entry), state: DriverStateText.text(records[entry.position.taxiId]?.state ?? .offDuty))
            }
            let queues = await dispatcher.allQueues().map { zone, view in ZoneQueueJSON(zone: zone, queues: view, now: now) }
            let state = PushStateJSON(fleet: taxis, zoneQueues: queues.sorted { $0.zoneId < $1.zoneId })
            return await hub.openBoardSocket(session: caller.session, first: try encoder.encode(state))
        }
    }
}

/// `GET /v1/notifications`: the caller's notifications, oldest first.
struct NotificationsJSON: Codable, Sendable {
    var notifications: [Notice]
}

/// The first message of a push socket: what the client's view starts from.
struct PushStateJSON: Encodable, Sendable {
    /// Always `state`.
    var kind = "state"
    /// A passenger's open ride, if any.
    var ride: RideJSON?
    /// A driver's taxi.
    var driver: DriverJSON?
    /// For the board: every taxi that ever reported.
    var fleet: [FleetTaxiJSON]?
    /// For the board: each zone with a taxi or passenger waiting.
    var zoneQueues: [ZoneQueueJSON]?
}
