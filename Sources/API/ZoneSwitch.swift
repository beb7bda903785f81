import DispatchCore
import DispatchRuntime
import Fleet
import Foundation
import Logging
import ServiceClock
import Zones

/// Puts a new zone set in force in the running service (SPEC Z4), for a
/// planner's activation through the API or a `SIGHUP` with a changed
/// zones file. (A start on another set than the archive's re-zones in
/// `MytaxiServer`'s start-up, before anything listens.)
///
/// The caller builds the new ``ZoneIndex`` first, beside the old one (an
/// invalid set never gets here). Then, in this order: ``ActiveZones``
/// takes it, so that ingest zones every fix it accepts from now on with
/// the new index and the API answers with it (each reader takes one index
/// or the other, never a mix); the
/// live index re-zones every taxi from its latest position, and the fixes
/// still on their way, zoned under the old set, as they arrive; the
/// dispatcher moves taxis, requests and reservations to their new zones
/// in one logged command; last, the dispatchers' board is told
/// (`zones_changed`), so that their maps draw the new zones. Switches run
/// one after another.
public actor ZoneSwitch {
    /// What one switch changed.
    public struct Report: Sendable {
        /// Zones of the set now in force.
        public var zoneCount: Int
        /// Taxis of the live index now in another zone.
        public var taxisRezoned: Int
        /// What the dispatcher decided (taxis moved, requests cancelled outside the new zones, ...).
        public var dispatchEvents: [DispatchEvent]
        /// Why the dispatcher could not follow (its log failed), nil when it did.
        public var dispatchFailure: DispatcherError?
        /// From the start of the switch to the dispatcher's durable command.
        public var duration: Duration
    }

    private let active: ActiveZones
    private let fleet: FleetIndex
    private let dispatcher: Dispatcher
    private let board: NotificationHub?
    private let clock: any ServiceClock
    private let logger: Logger
    private var inFlight: Task<Report, Never>?
    /// The zone set version activated through the API that is in force,
    /// nil while the zones file is.
    public private(set) var versionInForce: Int?

    /// Switches `active` (which ingest and the API read), `fleet` and
    /// `dispatcher`, and tells the dispatchers' `board` (nil: nobody
    /// watches), reading the time ingest stamps fixes with from `clock`;
    /// `versionInForce` is the version the service started on (nil: the zones file).
    public init(
        active: ActiveZones, fleet: FleetIndex, dispatcher: Dispatcher,
        board: NotificationHub?, clock: any ServiceClock, logger: Logger, versionInForce: Int? = nil
    ) {
        self.versionInForce = versionInForce
        self.active = active
        self.fleet = fleet
        self.dispatcher = dispatcher
        self.board = board
        self.clock = clock
        self.logger = logger
    }

    /// Puts `index` in force, after any switch still running; `version`
    /// is the zone set version activated (nil for the zones file), which
    /// the board is told; `source` names where the set came from in the
    /// log ("version 4 activated by planner1", "the zones file, on SIGHUP").
    @discardableResult
    public func switchTo(_ index: ZoneIndex, version: Int?, from source: String) async -> Report {
        let previous = inFlight
        let task = Task { [self] in
            _ = await previous?.value
            return await perform(index, version: version, from: source)
        }
        inFlight = task
        return await task.value
    }

    private func perform(_ index: ZoneIndex, version: Int?, from source: String) async -> Report {
        let started = ContinuousClock.now
        active.replace(with: index)
        versionInForce = version
        let taxisRezoned = fleet.rezone(at: clock.now) { index.zone(at: $0)?.id }
        var report = Report(
            zoneCount: index.zoneSet.zones.count, taxisRezoned: taxisRezoned, dispatchEvents: [], dispatchFailure: nil,
            duration: .zero)
        // On a node of several, the node that decides dispatch moves the
        // engine's zones when it puts the same version in force.
        if dispatcher.role.decides {
            do {
                report.dispatchEvents = try await dispatcher.replaceZones(with: index)
            } catch {
                report.dispatchFailure = error
            }
        }
        report.duration = ContinuousClock.now - started
        log(report, from: source)
        await tellBoard(version: version, zoneCount: report.zoneCount)
        return report
    }

    private func tellBoard(version: Int?, zoneCount: Int) async {
        guard let board else { return }
        do {
            await board.tellBoard(try ZonesChangedJSON(at: clock.now, version: version, zoneCount: zoneCount).encoded())
        } catch {
            logger.error("zones: the board could not be told of the new zone set: \(error)")
        }
    }

    private func log(_ report: Report, from source: String) {
        let cancelled = report.dispatchEvents.filter {
            switch $0 {
            case .requestCancelled(_, .outsideZones), .reservationCancelled(_, .outsideZones): true
            default: false
            }
        }.count
        let milliseconds = report.duration / .milliseconds(1)
        logger.info(
            "zones: \(report.zoneCount) zones in force (\(source)); \(report.taxisRezoned) taxis changed zone, \(cancelled) requests and bookings cancelled outside the new zones, in \(Int(milliseconds)) ms")
        if let failure = report.dispatchFailure {
            logger.error("zones: the dispatcher could not follow the new zone set (\(failure)); its queues follow as taxis report")
        }
    }
}
