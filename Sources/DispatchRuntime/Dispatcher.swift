import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Storage
import Synchronization
import Zones

/// The one owner of the dispatch state in `mytaxi serve` (SPEC D1–D6): it
/// serialises every command, so two requests never get the same taxi, and
/// makes each durable in the dispatch log before its caller or anyone else
/// hears of the outcome.
///
/// A command runs on the engine at once (so the next one sees its effect),
/// its log entry joins the group commit (many commands, one fsync), and
/// ``execute(_:)`` returns, and ``events`` publishes, only once the entry is
/// durable. When a write fails, the state the lost entries built is thrown
/// away: the dispatcher refuses commands until it has reloaded from the
/// log, and the callers of the lost entries get the storage error (an API
/// answers 503; nothing was promised).
///
/// Time: the engine runs on its own time line, the service clock's uptime
/// plus the engine time the log had reached at start, so a restart resumes
/// every pending timer (offers, confirmations, dwells) with the time it had
/// left when its last command was logged.
///
/// Several nodes on one database: the dispatcher of each node starts
/// following the log (``DispatchRole``); the node that takes the dispatch
/// lease makes its dispatcher decide (``decide(holding:)``) and writes under
/// the lease, the others replay what it writes (``catchUp()``), and their
/// dispatchers publish the same notices for their own push sockets.
public actor Dispatcher {
    /// The rules the engine applies.
    public nonisolated let rules: DispatchRules
    /// What each command told, published once durable, for the push
    /// layer (SPEC D7): the board's notices and the users' stored ones (the
    /// newest ``noticeBufferSize`` commands' are kept for a slow reader;
    /// the users' stay in the log until fetched).
    public nonisolated let notices: AsyncStream<CommandNotices>
    /// How many commands' unread notices ``notices`` keeps.
    public static let noticeBufferSize = 100_000

    var engine: DispatchEngine
    var answered: AnsweredCommands
    let etas: any PickupETAs
    let positions: any TaxiPositions
    private let trackingInterval: Duration
    private var lastTracking: Duration?
    let log: any DispatchLog
    private let gate: DispatchLogGate
    private let committer: GroupCommitter<EpochWrite>
    private let decisions = Atomic<Int>(0)
    let clock: any ServiceClock
    private let snapshotInterval: Int?
    private let noticeSink: AsyncStream<CommandNotices>.Continuation
    private var timeOffset: Duration
    private var epoch = 0
    private var lastSequence: Int64 = 0
    private var lastEngineTime: Duration = .zero
    /// The entries logged since the newest snapshot, counting the ones a
    /// restore replayed after it: a node that takes over a log whose last
    /// owners wrote no snapshot (they kept changing) writes one at its
    /// first command, so that the next restore stays short.
    private var entriesSinceSnapshot = 0
    private var reloading = false
    private let currentRole: Mutex<DispatchRole>
    /// Whether this dispatcher decides or follows another node's log,
    /// readable without waiting for the dispatcher: the lease's rounds and
    /// every API request ask it, and must not queue behind a burst of commands.
    public nonisolated var role: DispatchRole { currentRole.withLock { $0 } }
    /// Set when a following dispatcher's state may hold what it decided and
    /// could not write: the next ``catchUp()`` rebuilds it from the log.
    private var needsReload = false
    private var snapshotWriting: Task<Void, Never>?
    private let metrics: DispatchMetrics?
    /// The zones pickups are placed in as their command runs; nil: as the caller gave them.
    private let zones: ActiveZones?
    /// How often the timers sample the queues for the statistics.
    private let statisticsSampleInterval: Duration
    private var lastStatisticsSample: Date?
    /// Finds the taxi a shared request joins (SPEC D10); nil: shared
    /// requests are served alone, each open to no other rider.
    let sharing: SharedRideMatcher?
    /// When each taxi on a shared ride is expected at its stops.
    var sharedPlans = SharedPlans()

    /// Unless told otherwise, this many entries per taxi the engine knows
    /// (and at least 10,000) pass between two snapshots: a snapshot's encoding costs in proportion to the state
    /// (some 150 ms of a core for 10,000 taxis), so its share of each entry
    /// stays small however large the fleet, while a restart replays at most
    /// this many entries per taxi (a few seconds for 10,000 taxis).
    static let snapshotEntriesPerTaxi = 10

    /// Opens the dispatcher on `log`, rebuilding the state from its newest
    /// snapshot and the entries after it; a snapshot is written every
    /// `snapshotInterval` entries, by default every ``snapshotEntriesPerTaxi``
    /// entries per taxi (at least 10,000). `etas` gives the driving times from taxis
    /// to a pickup (the road router on the live fleet in the service),
    /// `positions` the taxis' latest positions, which every
    /// `trackingInterval` tell the ETA and the arrival of taxis on their way
    /// to a pickup (SPEC D6); `metrics` hears of every commit of the log and
    /// counts what each durable command decided, per zone; `zones`, when
    /// given, places each request's and booking's pickup as it runs;
    /// `role` says whether it decides (alone, by default) or follows the log
    /// of another node until told to decide; the timers sample the queues
    /// for the statistics every `statisticsSampleInterval`; `sharing`, when
    /// given, matches shared requests to taxis already on shared rides.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read,
    ///   ``DispatcherError/corruptLog(sequence:reason:)`` when it cannot be replayed.
    public init(
        log: any DispatchLog, rules: DispatchRules = DispatchRules(), clock: any ServiceClock,
        etas: any PickupETAs = NoPickupETAs(), positions: any TaxiPositions = NoTaxiPositions(),
        trackingInterval: Duration = .seconds(5), snapshotInterval: Int? = nil, metrics: DispatchMetrics? = nil,
        zones: ActiveZones? = nil, role: DispatchRole = .deciding(nil), statisticsSampleInterval: Duration = .seconds(60),
        sharing: SharedRideMatcher? = nil
    ) async throws(DispatcherError) {
        let restored = try await Self.restore(from: log, rules: rules)
        self.sharing = sharing
        self.rules = rules
        self.etas = etas
        self.metrics = metrics
        self.zones = zones
        self.statisticsSampleInterval = statisticsSampleInterval
        self.positions = positions
        self.trackingInterval = trackingInterval
        self.log = log
        self.clock = clock
        self.snapshotInterval = snapshotInterval.map { max(1, $0) }
        engine = restored.engine
        answered = restored.answered
        lastSequence = restored.lastSequence
        lastEngineTime = restored.engineTime
        entriesSinceSnapshot = restored.entriesAfterSnapshot
        timeOffset = restored.engineTime - clock.uptime
        let gate = DispatchLogGate(log: log)
        self.gate = gate
        currentRole = Mutex(role)
        if case .deciding(let lease?) = role { epoch = gate.hold(lease) }
        committer = GroupCommitter(
            threadName: "mytaxi-dispatch-log", commit: { try gate.write($0) },
            afterCommit: { _, report in metrics?.committed(writes: report.itemCount, duration: report.duration) })
        (notices, noticeSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.noticeBufferSize))
    }

    /// The engine's time now.
    public var engineTime: Duration { clock.uptime + timeOffset }

    /// The whole state, as the engine holds it (including commands whose
    /// entries are still being written).
    public var snapshot: DispatchSnapshot { engine.snapshot }

    /// The number of the last entry written or being written to the log.
    public var logSequence: Int64 { lastSequence }

    /// How many commands decided something (a taxi's state, a queue, a
    /// ride), counted as they run; readable without waiting for the
    /// dispatcher, so that a view of the dispatch state kept from before
    /// a change of this number (a fleet document) is known to be out of date.
    public nonisolated var decisionCount: Int { decisions.load(ordering: .acquiring) }

    /// Carries out `command` now and returns what the engine decided, once
    /// the command is durable. An observation that decides nothing (a timer
    /// tick, an ETA within the threshold) is not logged.
    ///
    /// A command that comes with `idempotencyKey` (a request's
    /// `Idempotency-Key`, scoped to its caller, method and path) is carried
    /// out once: sent again with the same key, on this node or any other,
    /// before or after a restart, it is answered with what the first one
    /// decided, once that is durable. The key is written with the command's entry.
    ///
    /// The command runs on the dispatcher; the wait for its commit does not:
    /// the dispatcher goes on to the next command as soon as this one's
    /// entry is handed to the group commit, and the caller is resumed from
    /// the commit without the dispatcher being woken for it.
    /// - Throws: ``DispatcherError/rejected(_:)`` when the command does not
    ///   fit (nothing changed), ``DispatcherError/storage(_:)`` when it could
    ///   not be made durable (nothing changed either).
    @discardableResult
    public nonisolated func execute(
        _ command: DispatchCommand, idempotencyKey: String? = nil
    ) async throws(DispatcherError) -> [DispatchEvent] {
        let (events, durability) = try await begin(command, idempotencyKey: idempotencyKey)
        return try await durable(events, durability)
    }

    /// `events` once `durability` is kept; the storage error, after
    /// reloading from the log, when it is not.
    nonisolated func durable(
        _ events: [DispatchEvent], _ durability: DurabilityPromise?
    ) async throws(DispatcherError) -> [DispatchEvent] {
        guard let durability else { return events }
        do {
            try await durability.wait()
        } catch {
            await recover()
            throw .storage(error as? StorageError ?? .writeFailed(reason: "\(error)"))
        }
        return events
    }

    /// Runs `command` and hands its entry to the group commit; returns what
    /// the engine decided and the promise of the entry's durability (nil
    /// when there is nothing to log). A request or a booking is placed in
    /// the zone of its pickup under the zone set in force as it runs (when
    /// the dispatcher was given ``ActiveZones``), so one that raced a zone
    /// swap never waits in a zone that is gone. A command whose key was
    /// answered before is not run: its first answer is returned.
    func begin(
        _ command: DispatchCommand, idempotencyKey key: String? = nil
    ) throws(DispatcherError) -> ([DispatchEvent], DurabilityPromise?) {
        if let key, let answer = answered[key] {
            if case .following(let owner) = role { throw .decidedElsewhere(owner: owner) }
            return (answer.events, answer.durability)
        }
        let command = zones.map { command.placingPickup(in: $0.current) } ?? command
        if let refusal = bookingRefusal(command) { return (refusal, nil) }
        let durability = DurabilityPromise()
        let (writes, events, notices) = try run(command, idempotencyKey: key.map { ($0, durability) })
        guard !writes.isEmpty else { return (events, nil) }
        submit(writes, events: events, notices: notices) { durability.settle($0) }
        return (events, durability)
    }

    /// Carries out `command` now without waiting for it to be durable: for
    /// what nobody waits an answer for (the fleet's zone changes), so that
    /// a burst of them shares commits. Its events are published once
    /// durable, as for ``execute(_:)``; a failed write is handled the same way.
    /// - Throws: ``DispatcherError/rejected(_:)`` when the command does not fit.
    public func record(_ command: DispatchCommand) throws(DispatcherError) {
        let (writes, events, notices) = try run(command)
        guard !writes.isEmpty else { return }
        submit(writes, events: events, notices: notices) { [self] result in
            if case .failure = result { Task { await self.recover() } }
        }
    }

    /// Moves taxis, open requests and reservations to their zones under
    /// `index`, a zone set just swapped in (SPEC Z4): each taxi by its
    /// latest position, each request and booking by its pickup, as
    /// ``DispatchEngine/replaceZones(_:now:)`` says; returns what the engine
    /// decided, once durable. Nothing is logged when the set changes nothing
    /// the engine holds.
    /// - Throws: ``DispatcherError/storage(_:)`` when it could not be made durable.
    @discardableResult
    public func replaceZones(with index: ZoneIndex) async throws(DispatcherError) -> [DispatchEvent] {
        let state = engine.snapshot
        let taxis = Array(state.taxis.keys)
        var coordinates: [TaxiID: Coordinate] = [:]
        for (taxi, coordinate) in zip(taxis, positions.positions(of: taxis)) { coordinates[taxi] = coordinate }
        let change = state.zoneReassignment(coordinates: coordinates) { index.zone(at: $0)?.id }
        guard !change.isEmpty else { return [] }
        let (events, durability) = try begin(.replaceZones(change))
        return try await durable(events, durability)
    }

    /// The driver of `taxi` accepts the offer it holds: the passenger is told
    /// the router's ETA from the taxi's position to the pickup (SPEC D3);
    /// `idempotencyKey` as for ``execute(_:idempotencyKey:)``.
    /// - Throws: as ``execute(_:)``; ``DispatchError/noPendingOffer(_:)`` without an offer.
    @discardableResult
    public func accept(_ taxi: TaxiID, idempotencyKey: String? = nil) async throws(DispatcherError) -> [DispatchEvent] {
        let pickup = engine.snapshot.request(heldBy: taxi)?.pickup
        let eta = pickup.flatMap { etas.eta(from: taxi, to: $0, depart: clock.now) }
        let (events, durability) = try begin(.accept(taxi, eta: eta), idempotencyKey: idempotencyKey)
        planSharedRide(accepted: events)
        return try await durable(events, durability)
    }

    /// For the dispatcher (SPEC D4): the zones with free taxis, ranked by the
    /// ETA of their best free taxi to `pickup`, at most `limit`, from one
    /// many-to-one router query over every free taxi (not a route per
    /// taxi); only taxis with room for `seats` passengers count.
    public func nearestZonesWithFreeTaxis(to pickup: Coordinate, limit: Int = 5, seats: Int = 1) -> [ZoneChoice] {
        let queues = engine.snapshot.taxiQueues
        let records = engine.snapshot.taxis
        var free: [TaxiID] = []
        free.reserveCapacity(queues.values.reduce(0) { $0 + $1.entries.count })
        for queue in queues.values { free.append(contentsOf: queue.entries.lazy.map(\.taxi)) }
        let known = etas.etas(from: free, to: pickup, depart: clock.now)
        var best: [ZoneChoice] = []
        var start = 0
        for (zone, queue) in queues {
            let end = start + queue.entries.count
            var choice: ZoneChoice?
            for index in start..<end {
                guard let eta = known[index], seats == 1 || (records[free[index]]?.seats ?? 0) >= seats else { continue }
                if let current = choice, (current.eta, current.taxi) <= (eta, free[index]) { continue }
                choice = ZoneChoice(zone: zone, taxi: free[index], eta: eta)
            }
            if let choice { best.append(choice) }
            start = end
        }
        return Array(best.sorted { ($0.eta, $0.zone) < ($1.eta, $1.zone) }.prefix(limit))
    }

    /// The expected wait of a new request at `pickup` in `zone` (SPEC D4,
    /// D9): the time until a taxi takes it, plus the drive: the free taxi's
    /// ETA to the pickup when one waits there, else the drive the zone's
    /// latest rides were told. Nil when the zone has neither a free taxi
    /// nor a recent arrival rate.
    public func expectedWait(at pickup: Coordinate, in zone: ZoneID) -> Duration? {
        wait(engine.expectedWaitForTaxi(in: zone, now: engineTime), at: pickup)
    }

    /// The expected wait of queued request `id` (SPEC D4), at its place in
    /// its zone's passenger queue; nil when it is not queued or there is no estimate.
    public func expectedWait(ofQueued id: RideRequestID) -> Duration? {
        guard let request = engine.snapshot.requests[id],
              let index = engine.snapshot.passengerQueue(in: request.zone).firstIndex(of: id) else { return nil }
        return wait(engine.expectedWaitForTaxi(in: request.zone, position: index + 1, now: engineTime), at: request.pickup)
    }

    /// `estimate` plus the drive: the free taxi's ETA to `pickup`, else the zone's typical drive.
    private func wait(_ estimate: TaxiWaitEstimate?, at pickup: Coordinate) -> Duration? {
        guard let estimate else { return nil }
        return estimate.wait(freeTaxisDrive: estimate.freeTaxi.flatMap { etas.eta(from: $0, to: pickup, depart: clock.now) })
    }

    /// Gives every reservation that awaits a taxi (none was free in its zone
    /// at its allocation time) the free taxi with the shortest ETA to its origin.
    private func allocateNearestToAwaitingReservations() async {
        for reservation in engine.snapshot.reservations(where: { $0.phase == .awaitingTaxi }) {
            guard let nearest = nearestZonesWithFreeTaxis(to: reservation.origin, limit: 1, seats: reservation.seats).first else { continue }
            _ = try? await execute(.allocate(reservation.id, taxi: nearest.taxi))
        }
    }

    /// Follows every taxi on its way to a pickup from its latest fix (SPEC
    /// D6): within ``arrivalRadiusMetres`` of the pickup it has arrived (the
    /// wait for a missing client starts), else the router's new ETA is told
    /// when it moved by more than 30 s or was last told 90 s ago.
    private func trackRidesToPickup() async {
        await trackSharedRides()
        let onTheWay = engine.snapshot.requests.values.compactMap { request -> (RideRequestID, TaxiID, Coordinate)? in
            guard case .assigned(let taxi, _) = request.phase, !request.isShared else { return nil }
            return (request.id, taxi, request.pickup)
        }
        for (id, taxi, pickup) in onTheWay {
            guard let position = positions.position(of: taxi) else { continue }
            if position.haversineDistance(to: pickup) <= Self.arrivalRadiusMetres {
                _ = try? await execute(.arrived(taxi))
            } else if let eta = etas.eta(from: taxi, to: pickup, depart: clock.now) {
                _ = try? await execute(.updateETA(id, eta: eta))
            }
        }
    }

    /// A taxi this close to its pickup has arrived (SPEC D6: 20 m).
    public static let arrivalRadiusMetres = 20.0

    /// A passenger's history (SPEC D8): upcoming reservations, soonest
    /// first, and the rides and bookings that ended in the past `days` days
    /// (a month by default), most recent first.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public func history(ofPassenger passenger: PassengerID, days: Int = 31, limit: Int = 500) async throws(DispatcherError) -> PassengerHistory {
        let upcoming = engine.snapshot.reservations(where: { $0.passenger == passenger })
        do {
            let past = try await log.history(ofPassenger: passenger.text, since: daysAgo(days), limit: limit)
            return PassengerHistory(upcoming: upcoming, past: past)
        } catch {
            throw .storage(error)
        }
    }

    /// Files every ended ride and booking of `passenger` under `replacement`
    /// (a deleted account's placeholder name) and forgets the notifications
    /// for `passenger` (SPEC A2: a deleted passenger's data is erased, its
    /// rides stay for the statistics).
    /// - Returns: how many rides and bookings were filed anew.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be written.
    @discardableResult
    public func anonymiseRides(of passenger: PassengerID, as replacement: PassengerID) async throws(DispatcherError) -> Int {
        do {
            return try await log.anonymise(
                passenger: passenger.text, as: replacement.text, recipient: DispatchNotices.recipient(passenger: passenger))
        } catch {
            throw .storage(error)
        }
    }

    /// The id of the open ride or the upcoming reservation of `passenger`
    /// (`R12`, `B3`), nil when it has neither: what must end before its account is deleted.
    public func openRideOrReservation(of passenger: PassengerID) -> String? {
        let state = engine.snapshot
        if let ride = state.openRequestOfPassenger[passenger] { return ride.description }
        return state.reservations(where: { $0.passenger == passenger }).first?.id.description
    }

    /// The rides and bookings that ended in the past `days` days of every
    /// passenger whose id starts with `prefix` (the dispatchers' phone
    /// callers, `phone:`), most recent first.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public func history(ofPassengersPrefixed prefix: String, days: Int, limit: Int = 500) async throws(DispatcherError) -> [RideHistoryRecord] {
        do {
            return try await log.history(ofPassengersPrefixed: prefix, since: daysAgo(days), limit: limit)
        } catch {
            throw .storage(error)
        }
    }

    /// The rides a driver's taxi served or was sent for in the past `days`
    /// days, most recent first (SPEC D8).
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public func history(ofTaxi taxi: TaxiID, days: Int = 31, limit: Int = 500) async throws(DispatcherError) -> [RideHistoryRecord] {
        do {
            return try await log.history(ofTaxi: taxi.text, since: daysAgo(days), limit: limit)
        } catch {
            throw .storage(error)
        }
    }

    /// How ride `id` ended, nil while it is open or when it never was:
    /// a finished ride stays answerable by the id its passenger was told.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public func endedRide(_ id: RideRequestID) async throws(DispatcherError) -> RideHistoryRecord? {
        do {
            return try await log.endedRide(id.description)
        } catch {
            throw .storage(error)
        }
    }

    /// The statistics of the subjects whose name starts with `prefix`
    /// (``StatisticsSubject``) for the hours that start in `hours`.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(DispatcherError) -> [HourlyCount] {
        do {
            return try await log.counts(ofSubjectsPrefixed: prefix, hours: hours)
        } catch {
            throw .storage(error)
        }
    }

    /// Takes a sample of the queues for the statistics every
    /// ``statisticsSampleInterval`` of the wall clock, the first one interval
    /// after the timers start: written behind the entries, as figures that
    /// stand for the interval before it.
    private func sampleForStatistics() {
        let wall = clock.now
        guard let last = lastStatisticsSample else {
            lastStatisticsSample = wall
            return
        }
        guard wall.timeIntervalSince(last) >= statisticsSampleInterval / .seconds(1) else { return }
        lastStatisticsSample = wall
        let counts = StatisticsCounts.sample(of: engine.snapshot, at: wall, standingFor: statisticsSampleInterval)
        committer.submit([EpochWrite(epoch: epoch, content: .counts(counts))]) { _ in }
    }

    private func daysAgo(_ days: Int) -> Date {
        clock.now.addingTimeInterval(-Double(days) * 86_400)
    }

    /// Applies the timers due now, then sleeps until the next deadline (at
    /// most `maximumSleep`, which bounds how late a deadline set meanwhile
    /// can fire), until the task is cancelled. While following another
    /// node's log it only sleeps: the deciding node runs the timers.
    public func runTimers(maximumSleep: Duration = .milliseconds(250)) async {
        while !Task.isCancelled {
            guard role.decides else {
                do { try await clock.sleep(for: maximumSleep) } catch { return }
                continue
            }
            _ = try? await execute(.tick)
            sampleForStatistics()
            await allocateNearestToAwaitingReservations()
            if lastTracking.map({ engineTime - $0 >= trackingInterval }) ?? true {
                lastTracking = engineTime
                await trackRidesToPickup()
            }
            let untilDeadline = engine.nextDeadline.map { $0 - engineTime } ?? maximumSleep
            let untilReservation = engine.nextReservationDeadline.map {
                Duration.seconds(max(0, min($0.timeIntervalSince(clock.now), 86_400)))
            } ?? maximumSleep
            let sleep = min(max(min(untilDeadline, untilReservation), .zero), maximumSleep)
            do { try await clock.sleep(for: sleep) } catch { return }
        }
    }

    /// Writes what is queued and stops the log's writer.
    public nonisolated func close() {
        committer.shutdown()
    }

    /// Runs `command` on the engine and returns the log writes that make it
    /// durable; a command logged with `idempotencyKey` is remembered by its
    /// key, with the promise of its entry's durability.
    private func run(
        _ command: DispatchCommand, idempotencyKey: (key: String, durability: DurabilityPromise)? = nil
    ) throws(DispatcherError) -> (writes: [EpochWrite], events: [DispatchEvent], notices: CommandNotices?) {
        if case .following(let owner) = role { throw .decidedElsewhere(owner: owner) }
        guard !reloading else {
            throw .storage(.unavailable(location: "the dispatch log", reason: "reloading after a failed write; try again"))
        }
        if let problem = command.invalidity { throw .invalid(problem) }
        let now = max(engineTime, lastEngineTime)
        let wall = clock.now
        let fleetTaxi = Self.taxi(reportedBy: command)
        let recordBefore = fleetTaxi.flatMap { engine.snapshot.taxis[$0] }
        let events: [DispatchEvent]
        do {
            events = try engine.execute(command, now: now, wall: wall)
        } catch {
            throw .rejected(error)
        }
        if !events.isEmpty { decisions.add(1, ordering: .releasing) }
        sharedPlans.follow(events)
        if command.isObservation, events.isEmpty { return ([], [], nil) }
        // A fleet event that changed nothing (a restart's restored fleet
        // telling positions the engine knows) is not worth an entry.
        if let fleetTaxi, events.isEmpty, engine.snapshot.taxis[fleetTaxi] == recordBefore { return ([], [], nil) }
        lastSequence += 1
        lastEngineTime = now
        let logged = LoggedCommand(command: command, engineTime: now, wallTime: wall, idempotencyKey: idempotencyKey?.key)
        if let idempotencyKey {
            answered.remember(idempotencyKey.key, events: events, at: wall, durability: idempotencyKey.durability)
        }
        entriesSinceSnapshot += 1
        if entriesSinceSnapshot >= snapshotInterval ?? max(10_000, Self.snapshotEntriesPerTaxi * engine.snapshot.taxis.count) {
            writeSnapshotInTheBackground(LoggedState(snapshot: engine.snapshot, engineTime: now, answered: answered.answers))
            entriesSinceSnapshot = 0
        }
        let closed = engine.closedByLastCall
        var writes = [EpochWrite(epoch: epoch, content: .entry(sequence: lastSequence, logged))]
        for record in RideHistory.records(endedBy: events, closed: closed, at: wall) {
            writes.append(EpochWrite(epoch: epoch, content: .history(record)))
        }
        let counts = StatisticsCounts.counts(of: events, snapshot: engine.snapshot, closed: closed, now: now, wall: wall)
        if !counts.isEmpty { writes.append(EpochWrite(epoch: epoch, content: .counts(counts))) }
        guard !events.isEmpty else { return (writes, events, nil) }
        let notices = CommandNotices(
            sequence: lastSequence, events: events,
            context: DispatchNotices.Context(
                events: events, snapshot: engine.snapshot, closed: closed, engineTime: now, wall: wall,
                allocationETAs: allocationETAs(of: events)))
        writes.append(EpochWrite(epoch: epoch, content: .notices(notices)))
        return (writes, events, notices)
    }

    /// The router's ETA of each taxi given a reservation by `events` to
    /// the reservation's pickup, for the reminder (D5: 10 min before).
    private func allocationETAs(of events: [DispatchEvent]) -> [RideRequestID: Duration] {
        var found: [RideRequestID: Duration] = [:]
        for case .reservationAllocated(_, let taxi, let ride) in events {
            guard let pickup = engine.snapshot.requests[ride]?.pickup else { continue }
            found[ride] = etas.eta(from: taxi, to: pickup, depart: clock.now)
        }
        return found
    }

    /// A booking the passenger may not make (the same one again, or one
    /// beyond ``DispatchRules/maximumOpenReservations``), refused here
    /// rather than by the engine, so that the log's replay, which runs the
    /// engine alone, keeps every booking once accepted; nil for any other command.
    private func bookingRefusal(_ command: DispatchCommand) -> [DispatchEvent]? {
        guard case .reserve(let passenger, let origin, _, let destination, let pickupAt, _, _) = command else { return nil }
        let open = engine.snapshot.reservations(where: { $0.passenger == passenger })
        if let same = open.first(where: {
            $0.pickupAt == pickupAt && $0.origin.haversineDistance(to: origin) < Self.samePlace
                && $0.destination.haversineDistance(to: destination) < Self.samePlace
        }) {
            return [.requestRefused(passenger, reason: .duplicateReservation(same.id))]
        }
        guard open.count < rules.maximumOpenReservations else {
            return [.requestRefused(passenger, reason: .tooManyReservations(limit: rules.maximumOpenReservations))]
        }
        return nil
    }

    /// Two bookings' places closer than this, in metres, are the same place.
    static let samePlace = 25.0

    /// The taxi a fleet event is about; nil for every other command.
    private static func taxi(reportedBy command: DispatchCommand) -> TaxiID? {
        guard case .fleet(let event) = command else { return nil }
        switch event {
        case .appeared(let taxi, _, _), .changedZone(let taxi, _, _, _), .wentStale(let taxi, _), .cameBack(let taxi, _, _): return taxi
        }
    }

    /// Encodes `state`, the state after the entry just logged, off the
    /// dispatcher and the log's writer (a city's state takes a while), then
    /// writes it behind the entries it includes, which the log's order keeps
    /// ahead of it. A snapshot that fails to encode is skipped: the next one
    /// will do, and the log alone rebuilds the state.
    private func writeSnapshotInTheBackground(_ state: LoggedState) {
        let (committer, epoch, sequence, previous) = (committer, epoch, lastSequence, snapshotWriting)
        snapshotWriting = Task.detached(priority: .background) {
            await previous?.value
            guard let payload = try? DispatchLogCoding.makeEncoder().encode(state) else { return }
            let write = EpochWrite(epoch: epoch, content: .snapshot(DispatchLogSnapshot(sequence: sequence, payload: payload)))
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                committer.submit([write]) { _ in continuation.resume() }
            }
        }
    }

    /// Returns once everything submitted to the log so far is written (or failed).
    public func waitForWrites() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            committer.submit([]) { _ in continuation.resume() }
        }
    }

    /// Returns once the snapshots begun so far are written (or failed).
    public func finishSnapshots() async {
        await snapshotWriting?.value
    }

    private func submit(
        _ writes: [EpochWrite], events: [DispatchEvent], notices: CommandNotices?,
        then: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let (sink, metrics, now) = (noticeSink, metrics, lastEngineTime)
        let requests = metrics == nil ? [:] : DispatchMetrics.requests(namedIn: events, of: engine.snapshot)
        committer.submit(writes) { result in
            if case .success = result {
                if let notices { sink.yield(notices) }
                metrics?.count(events, requests: requests, at: now)
            }
            then(result)
        }
    }

    /// After a failed write: waits until every write queued before it has
    /// been turned down, then rebuilds the state from the log.
    private func recover() async {
        guard !reloading, epoch != gate.currentEpoch else { return }
        reloading = true
        defer { reloading = false }
        await waitForWrites()
        while true {
            do {
                try await reload()
                epoch = gate.currentEpoch
                return
            } catch {
                try? await clock.sleep(for: .seconds(1))
            }
        }
    }

    /// Rebuilds the state from the log, dropping whatever was decided and not written.
    private func reload() async throws(DispatcherError) {
        let restored = try await Self.restore(from: log, rules: rules)
        engine = restored.engine
        answered = restored.answered
        decisions.add(1, ordering: .releasing)
        lastSequence = restored.lastSequence
        lastEngineTime = max(lastEngineTime, restored.engineTime)
        entriesSinceSnapshot = restored.entriesAfterSnapshot
    }

    /// Makes this dispatcher decide under `lease`, which its node has just
    /// taken: it first reads what the previous owner wrote (the whole state,
    /// from the log), then runs the engine on from the log's last time, so
    /// pending timers resume with the time they had left then, as after a
    /// restart; every write from now on is made under `lease`.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be
    ///   read (it stays as it was), ``DispatcherError/corruptLog(sequence:reason:)``.
    public func decide(holding lease: DispatchLease) async throws(DispatcherError) {
        if role == .deciding(lease) { return }
        await waitForWrites()
        try await reload()
        needsReload = false
        timeOffset = lastEngineTime - clock.uptime
        epoch = gate.hold(lease)
        currentRole.withLock { $0 = .deciding(lease) }
    }

    /// Makes this dispatcher follow the log written by `owner` (nil while
    /// nobody holds the lease): it decides nothing from now on, and what it
    /// decided that is not written yet fails (its lease is gone, so the log
    /// would refuse it). Its state is rebuilt from the log by the next ``catchUp()``.
    public func follow(owner: DispatchLease?) async {
        let wasDeciding = role.decides
        currentRole.withLock { $0 = .following(owner: owner) }
        guard wasDeciding else { return }
        epoch = gate.hold(nil)
        needsReload = true
        await waitForWrites()
    }

    /// While following: replays the entries the deciding node wrote since
    /// the last call and publishes their notices, so that this node's reads
    /// and push sockets are as current as the log. Does nothing while deciding.
    /// - Returns: how many entries it replayed.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be
    ///   read, ``DispatcherError/corruptLog(sequence:reason:)``.
    @discardableResult
    public func catchUp() async throws(DispatcherError) -> Int {
        guard !role.decides else { return 0 }
        if needsReload {
            try await reload()
            needsReload = false
            return 0
        }
        var replayed = 0
        while true {
            let entries: [DispatchLogEntry]
            do {
                entries = try await log.entries(after: lastSequence, limit: Self.logPageSize)
            } catch {
                throw .storage(error)
            }
            // The state may have been rebuilt meanwhile (a reload, a decision to decide).
            guard !role.decides else { return replayed }
            for entry in entries where entry.sequence > lastSequence {
                let logged = try Self.replay(entry, on: &engine, answered: &answered)
                lastSequence = entry.sequence
                lastEngineTime = max(lastEngineTime, logged.command.engineTime)
                replayed += 1
                guard !logged.events.isEmpty else { continue }
                noticeSink.yield(CommandNotices(
                    sequence: entry.sequence, events: logged.events,
                    context: DispatchNotices.Context(
                        events: logged.events, snapshot: engine.snapshot, closed: engine.closedByLastCall,
                        engineTime: logged.command.engineTime, wall: logged.command.wallTime)))
            }
            if entries.count < Self.logPageSize { break }
        }
        if replayed > 0 { decisions.add(1, ordering: .releasing) }
        return replayed
    }

    private struct Restored {
        var engine: DispatchEngine
        var answered = AnsweredCommands()
        var lastSequence: Int64
        var engineTime: Duration
        /// How many entries were replayed after the snapshot.
        var entriesAfterSnapshot = 0
    }

    /// How many log entries a restore or a catch-up reads at a time: what
    /// it holds in memory is one page, however long the stretch it replays.
    public static let logPageSize = 2_000

    /// The state the log holds: its newest snapshot, then every entry after it replayed at its time.
    private static func restore(from log: any DispatchLog, rules: DispatchRules) async throws(DispatcherError) -> Restored {
        let snapshot: DispatchLogSnapshot?
        do {
            snapshot = try await log.latestSnapshot()
        } catch {
            throw .storage(error)
        }
        var restored = Restored(engine: DispatchEngine(rules: rules), lastSequence: 0, engineTime: .zero)
        if let snapshot {
            do {
                let state = try DispatchLogCoding.decode(LoggedState.self, from: snapshot.payload)
                restored = Restored(
                    engine: DispatchEngine(rules: rules, restoring: state.snapshot),
                    answered: AnsweredCommands(restoring: state.answered ?? [:]),
                    lastSequence: snapshot.sequence, engineTime: state.engineTime)
            } catch {
                throw .corruptLog(sequence: snapshot.sequence, reason: "its snapshot does not decode: \(error)")
            }
        }
        while true {
            let entries: [DispatchLogEntry]
            do {
                entries = try await log.entries(after: restored.lastSequence, limit: logPageSize)
            } catch {
                throw .storage(error)
            }
            for entry in entries {
                let logged = try replay(entry, on: &restored.engine, answered: &restored.answered)
                restored.engineTime = logged.command.engineTime
                restored.lastSequence = entry.sequence
            }
            restored.entriesAfterSnapshot += entries.count
            if entries.count < logPageSize { return restored }
        }
    }

    /// Runs the command of `entry` on `engine` at the times it was logged
    /// with, and remembers its idempotency key in `answered`.
    private static func replay(
        _ entry: DispatchLogEntry, on engine: inout DispatchEngine, answered: inout AnsweredCommands
    ) throws(DispatcherError) -> (command: LoggedCommand, events: [DispatchEvent]) {
        do {
            let logged = try DispatchLogCoding.decode(LoggedCommand.self, from: entry.payload)
            let events = try engine.execute(logged.command, now: logged.engineTime, wall: logged.wallTime)
            if let key = logged.idempotencyKey { answered.remember(key, events: events, at: logged.wallTime) }
            return (logged, events)
        } catch {
            throw .corruptLog(sequence: entry.sequence, reason: "\(error)")
        }
    }
}
