import FixRecords
import GeoKit
import Foundation
import Synchronization
import Zones

/// The live index of the fleet (SPEC I5): per taxi its latest position,
/// time, speed, heading and zone, and whether it has gone silent.
///
/// Thread-safe; updates come in batches from the ingest pipeline, reads from
/// the API. A fix older than the taxi's current one never moves it back
/// (it is still archived: out-of-order fixes are history, not news).
///
/// What changes (a taxi appearing, changing zone, going stale, coming back)
/// is also published on ``events``, which a consumer such as the dispatch
/// engine reads at its own pace: publishing never waits for it, so the
/// commit thread that applies fixes is not slowed. Staleness is found by
/// ``sweepStale(now:)``, which the service runs every second.
///
/// The taxis that moved are also noted, once each until taken, for work
/// that must follow every move but not hold up ingest (snapping positions
/// to the roads): noting one costs a flag and an append under the lock
/// already held, and ``takeMoved()`` hands them over.
public final class FleetIndex: Sendable {
    /// A taxi's live entry as the API shows it.
    public struct Entry: Sendable, Equatable {
        public var position: TaxiPosition
        /// When the server last heard from the taxi (its clock, not the terminal's).
        public var lastHeard: Date
        /// True when nothing was heard for longer than the stale limit: no offers then.
        public var stale: Bool
    }

    /// A taxi's latest position, when the server last heard from it, and
    /// whether a sweep found it stale.
    private struct Live {
        var position: TaxiPosition
        var lastHeard: Date
        var markedStale = false
        /// In ``State/moved``, not yet taken.
        var movedUntaken = true
    }

    private struct State {
        var taxis: [TaxiID: Live] = [:]
        var taxisByZone: [ZoneID: Set<TaxiID>] = [:]
        /// The taxis that appeared or moved since ``takeMoved()`` last ran, each once.
        var moved: [TaxiID] = []
        /// The zone set of the last ``rezone(at:zoneOf:)``, and when it
        /// took effect: a fix heard until then was zoned under the set
        /// before, so its zone is taken again.
        var latestZoneSet: (since: Date, zoneOf: @Sendable (Coordinate) -> ZoneID?)?
    }

    private let state = Mutex(State())
    /// Silence after which a taxi is stale (default 90 s).
    public let staleAfter: TimeInterval
    /// The changes of the fleet, in the order they were applied. Events
    /// beyond ``eventBufferSize`` unread ones are dropped (the oldest are
    /// kept) and counted in ``droppedEvents``; a consumer that fell that far
    /// behind rebuilds its view from the index.
    public let events: AsyncStream<FleetEvent>
    private let eventSink: AsyncStream<FleetEvent>.Continuation
    private let dropped = Atomic<Int>(0)
    private let rezonings = Atomic<Int>(0)
    /// Unread events kept for a slow consumer.
    public static let eventBufferSize = 100_000

    public init(staleAfter: TimeInterval = 90) {
        self.staleAfter = staleAfter
        (events, eventSink) = AsyncStream.makeStream(of: FleetEvent.self, bufferingPolicy: .bufferingOldest(Self.eventBufferSize))
    }

    deinit {
        eventSink.finish()
    }

    /// Events dropped because the consumer fell behind.
    public var droppedEvents: Int { dropped.load(ordering: .relaxed) }

    /// How many times the whole fleet was zoned again under another zone
    /// set: a view of the fleet kept from before a change of this number
    /// shows zones no longer in force.
    public var rezoneCount: Int { rezonings.load(ordering: .acquiring) }

    private func publish(_ event: FleetEvent) {
        if case .dropped = eventSink.yield(event) { dropped.add(1, ordering: .relaxed) }
    }

    /// Applies a position heard at `heardAt`; returns false when it was older
    /// than the taxi's current position and so did not move it.
    @discardableResult
    public func update(_ position: TaxiPosition, heardAt: Date) -> Bool {
        state.withLock { state in
            apply(position, heardAt: heardAt, to: &state)
        }
    }

    /// Applies many positions, each with the time it was heard, under one
    /// lock (a group commit's worth); returns how many moved their taxi.
    @discardableResult
    public func update(_ heard: some Sequence<(position: TaxiPosition, heardAt: Date)>) -> Int {
        state.withLock { state in
            heard.reduce(0) { $0 + (apply($1.position, heardAt: $1.heardAt, to: &state) ? 1 : 0) }
        }
    }

    /// One hash lookup per fix on the ingest path; the zone sets change, and
    /// an event is published, only when a taxi appears, comes back or
    /// changes zone.
    private func apply(_ heard: TaxiPosition, heardAt: Date, to state: inout State) -> Bool {
        var position = heard
        if let zoneSet = state.latestZoneSet, heardAt <= zoneSet.since { position.zoneId = zoneSet.zoneOf(position.coordinate) }
        let taxi = position.taxiId
        guard let index = state.taxis.index(forKey: taxi) else {
            state.taxis[taxi] = Live(position: position, lastHeard: heardAt)
            state.moved.append(taxi)
            if let zone = position.zoneId { state.taxisByZone[zone, default: []].insert(taxi) }
            publish(.appeared(taxi, zone: position.zoneId, at: heardAt))
            return true
        }
        let current = state.taxis.values[index]
        state.taxis.values[index].lastHeard = max(current.lastHeard, heardAt)
        // Only news brings a silent taxi back: the same fix read again (each
        // second from the archive, on a node of several) leaves it silent.
        if current.markedStale, heardAt > current.lastHeard {
            state.taxis.values[index].markedStale = false
            publish(.cameBack(taxi, zone: position.time > current.position.time ? position.zoneId : current.position.zoneId, at: heardAt))
        }
        guard position.time > current.position.time else { return false }
        state.taxis.values[index].position = position
        if !current.movedUntaken {
            state.taxis.values[index].movedUntaken = true
            state.moved.append(taxi)
        }
        let (old, new) = (current.position.zoneId, position.zoneId)
        if old != new {
            if let old { state.taxisByZone[old]?.remove(taxi) }
            if let new { state.taxisByZone[new, default: []].insert(taxi) }
            publish(.changedZone(taxi, from: old, to: new, at: heardAt))
        }
        return true
    }

    /// Finds the taxis silent for longer than the stale limit at `now` that
    /// were not yet found so, publishes `wentStale` for each, and returns them.
    @discardableResult
    public func sweepStale(now: Date) -> [TaxiID] {
        state.withLock { state in
            var found: [TaxiID] = []
            for index in state.taxis.indices where !state.taxis.values[index].markedStale {
                let live = state.taxis.values[index]
                guard now.timeIntervalSince(live.lastHeard) > staleAfter else { continue }
                state.taxis.values[index].markedStale = true
                found.append(state.taxis.keys[index])
                publish(.wentStale(state.taxis.keys[index], lastHeard: live.lastHeard))
            }
            return found
        }
    }

    /// Assigns every taxi's latest position to its zone in a new zone set
    /// (a planner published one, SPEC Z4), publishing `changedZone` for
    /// each taxi whose zone changed; returns how many changed.
    ///
    /// `now` is when the new set took effect for ingest: a fix heard until
    /// then, still on its way to the index, was zoned under the old set, so
    /// the index takes its zone again from `zoneOf`.
    @discardableResult
    public func rezone(at now: Date, zoneOf: @escaping @Sendable (Coordinate) -> ZoneID?) -> Int {
        state.withLock { state in
            state.latestZoneSet = (now, zoneOf)
            state.taxisByZone = [:]
            var changed = 0
            for index in state.taxis.indices {
                let taxi = state.taxis.keys[index]
                let old = state.taxis.values[index].position.zoneId
                let new = zoneOf(state.taxis.values[index].position.coordinate)
                state.taxis.values[index].position.zoneId = new
                if let new { state.taxisByZone[new, default: []].insert(taxi) }
                if old != new {
                    changed += 1
                    publish(.changedZone(taxi, from: old, to: new, at: now))
                }
            }
            rezonings.add(1, ordering: .releasing)
            return changed
        }
    }

    /// The taxis that appeared or moved since the last call, each once, with
    /// their latest coordinates; the next call lists only those that move again.
    public func takeMoved() -> [(taxi: TaxiID, coordinate: Coordinate)] {
        state.withLock { state in
            let moved = state.moved.compactMap { taxi -> (taxi: TaxiID, coordinate: Coordinate)? in
                guard let index = state.taxis.index(forKey: taxi) else { return nil }
                state.taxis.values[index].movedUntaken = false
                return (taxi, state.taxis.values[index].position.coordinate)
            }
            state.moved.removeAll(keepingCapacity: true)
            return moved
        }
    }

    /// The live entry of a taxi, or nil when it was never heard of.
    public func entry(for taxi: TaxiID, now: Date) -> Entry? {
        state.withLock { state in
            state.taxis[taxi].map { makeEntry($0.position, lastHeard: $0.lastHeard, now: now) }
        }
    }

    /// The latest position of `taxi`, nil when never heard of.
    public func latestPosition(of taxi: TaxiID) -> TaxiPosition? {
        state.withLock { $0.taxis[taxi]?.position }
    }

    /// The latest coordinates of `taxis`, in order, nil for a taxi never
    /// heard from: many taxis under one lock (a dispatcher's query over every
    /// free taxi asks for thousands).
    public func latestCoordinates(of taxis: [TaxiID]) -> [Coordinate?] {
        state.withLock { state in
            // Read in place, not by copying each taxi's live entry out.
            taxis.map { taxi in state.taxis.index(forKey: taxi).map { state.taxis.values[$0].position.coordinate } }
        }
    }

    /// The taxis whose latest position is in `zone`, by taxi id.
    public func entries(inZone zone: ZoneID, now: Date) -> [Entry] {
        let live = state.withLock { state in (state.taxisByZone[zone] ?? []).compactMap { state.taxis[$0] } }
        return byTaxiId(live, now: now)
    }

    /// Every taxi's live entry, by taxi id.
    public func entries(now: Date) -> [Entry] {
        byTaxiId(state.withLock { Array($0.taxis.values) }, now: now)
    }

    /// `live` as entries at `now`, by taxi id: sorted once copied out of the
    /// lock, so that a dispatcher's read of the whole fleet (10,000 taxis,
    /// milliseconds of sorting) never holds up the ingest path's updates.
    private func byTaxiId(_ live: [Live], now: Date) -> [Entry] {
        live.sorted { $0.position.taxiId < $1.position.taxiId }.map { makeEntry($0.position, lastHeard: $0.lastHeard, now: now) }
    }

    /// How many taxis the index holds.
    public var count: Int { state.withLock { $0.taxis.count } }

    private func makeEntry(_ position: TaxiPosition, lastHeard: Date, now: Date) -> Entry {
        Entry(position: position, lastHeard: lastHeard, stale: now.timeIntervalSince(lastHeard) > staleAfter)
    }
}
