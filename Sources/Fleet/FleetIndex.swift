import Foundation
import Synchronization
import Zones

/// The live index of the fleet (SPEC I5): per taxi its latest position,
/// time, speed, heading and zone, and whether it has gone silent.
///
/// Thread-safe; updates come in batches from the ingest pipeline, reads from
/// the API. A fix older than the taxi's current one never moves it back
/// (it is still archived: out-of-order fixes are history, not news).
public final class FleetIndex: Sendable {
    /// A taxi's live entry as the API shows it.
    public struct Entry: Sendable, Equatable {
        public var position: TaxiPosition
        /// When the server last heard from the taxi (its clock, not the terminal's).
        public var lastHeard: Date
        /// True when nothing was heard for longer than the stale limit: no offers then.
        public var stale: Bool
    }

    /// A taxi's latest position and when the server last heard from it.
    private struct Live {
        var position: TaxiPosition
        var lastHeard: Date
    }

    private struct State {
        var taxis: [TaxiID: Live] = [:]
        var taxisByZone: [ZoneID: Set<TaxiID>] = [:]
    }

    private let state = Mutex(State())
    /// Silence after which a taxi is stale (default 90 s).
    public let staleAfter: TimeInterval

    public init(staleAfter: TimeInterval = 90) {
        self.staleAfter = staleAfter
    }

    /// Applies a position heard at `heardAt`; returns false when it was older
    /// than the taxi's current position and so did not move it.
    @discardableResult
    public func update(_ position: TaxiPosition, heardAt: Date) -> Bool {
        state.withLock { state in
            Self.apply(position, heardAt: heardAt, to: &state)
        }
    }

    /// Applies many positions, each with the time it was heard, under one
    /// lock (a group commit's worth); returns how many moved their taxi.
    @discardableResult
    public func update(_ heard: some Sequence<(position: TaxiPosition, heardAt: Date)>) -> Int {
        state.withLock { state in
            heard.reduce(0) { $0 + (Self.apply($1.position, heardAt: $1.heardAt, to: &state) ? 1 : 0) }
        }
    }

    /// One hash lookup per fix on the ingest path; the zone sets change only
    /// when a taxi enters the index or changes zone.
    private static func apply(_ position: TaxiPosition, heardAt: Date, to state: inout State) -> Bool {
        let taxi = position.taxiId
        guard let index = state.taxis.index(forKey: taxi) else {
            state.taxis[taxi] = Live(position: position, lastHeard: heardAt)
            if let zone = position.zoneId { state.taxisByZone[zone, default: []].insert(taxi) }
            return true
        }
        let current = state.taxis.values[index]
        state.taxis.values[index].lastHeard = max(current.lastHeard, heardAt)
        guard position.time > current.position.time else { return false }
        state.taxis.values[index].position = position
        let (old, new) = (current.position.zoneId, position.zoneId)
        if old != new {
            if let old { state.taxisByZone[old]?.remove(taxi) }
            if let new { state.taxisByZone[new, default: []].insert(taxi) }
        }
        return true
    }

    /// The live entry of a taxi, or nil when it was never heard of.
    public func entry(for taxi: TaxiID, now: Date) -> Entry? {
        state.withLock { state in
            state.taxis[taxi].map { makeEntry($0.position, lastHeard: $0.lastHeard, now: now) }
        }
    }

    /// The taxis whose latest position is in `zone`, by taxi id.
    public func entries(inZone zone: ZoneID, now: Date) -> [Entry] {
        state.withLock { state in
            (state.taxisByZone[zone] ?? []).sorted().compactMap { taxi in
                state.taxis[taxi].map { makeEntry($0.position, lastHeard: $0.lastHeard, now: now) }
            }
        }
    }

    /// How many taxis the index holds.
    public var count: Int { state.withLock { $0.taxis.count } }

    private func makeEntry(_ position: TaxiPosition, lastHeard: Date, now: Date) -> Entry {
        Entry(position: position, lastHeard: lastHeard, stale: now.timeIntervalSince(lastHeard) > staleAfter)
    }
}
