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

    private struct State {
        var positions: [TaxiID: TaxiPosition] = [:]
        var lastHeard: [TaxiID: Date] = [:]
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

    /// Applies many positions under one lock; returns how many moved their taxi.
    @discardableResult
    public func update(_ positions: [TaxiPosition], heardAt: Date) -> Int {
        state.withLock { state in
            positions.reduce(0) { $0 + (Self.apply($1, heardAt: heardAt, to: &state) ? 1 : 0) }
        }
    }

    private static func apply(_ position: TaxiPosition, heardAt: Date, to state: inout State) -> Bool {
        let taxi = position.taxiId
        state.lastHeard[taxi] = max(state.lastHeard[taxi] ?? heardAt, heardAt)
        if let current = state.positions[taxi] {
            guard position.time > current.time else { return false }
            if current.zoneId != position.zoneId, let old = current.zoneId {
                state.taxisByZone[old]?.remove(taxi)
            }
        }
        state.positions[taxi] = position
        if let zone = position.zoneId { state.taxisByZone[zone, default: []].insert(taxi) }
        return true
    }

    /// The live entry of a taxi, or nil when it was never heard of.
    public func entry(for taxi: TaxiID, now: Date) -> Entry? {
        state.withLock { state in
            state.positions[taxi].map { makeEntry($0, lastHeard: state.lastHeard[taxi] ?? $0.time, now: now) }
        }
    }

    /// The taxis whose latest position is in `zone`, by taxi id.
    public func entries(inZone zone: ZoneID, now: Date) -> [Entry] {
        state.withLock { state in
            (state.taxisByZone[zone] ?? []).sorted().compactMap { taxi in
                state.positions[taxi].map { makeEntry($0, lastHeard: state.lastHeard[taxi] ?? $0.time, now: now) }
            }
        }
    }

    /// How many taxis the index holds.
    public var count: Int { state.withLock { $0.positions.count } }

    private func makeEntry(_ position: TaxiPosition, lastHeard: Date, now: Date) -> Entry {
        Entry(position: position, lastHeard: lastHeard, stale: now.timeIntervalSince(lastHeard) > staleAfter)
    }
}
