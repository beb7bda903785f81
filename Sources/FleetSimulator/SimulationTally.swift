import Foundation
import Synchronization

/// What the simulation counted so far, shared by every taxi and passenger
/// task: fixes, requests and what became of them, and the waits. A ride's
/// wait runs from its request to the taxi at the pickup, in simulated time.
public final class SimulationTally: Sendable {
    private struct Requested {
        let at: Date
        let toldWaitSeconds: Double?
        let zoneId: String?
        var queued = false
        var refusals = 0
        var takenWhileMoving: Bool?
        var driveSeconds: Double?
    }

    private struct State {
        var fixesSent: [TerminalKind: Int] = [:]
        var fixesAcknowledged = 0
        var acknowledgedFixes: [AcknowledgedFix] = []
        var gaps = 0
        var terminalFailures = 0
        var apiFailures = 0
        var apiRetries = 0
        var apiFailureReasons: [String: Int] = [:]
        var driversAvailable = 0
        var requests = 0
        var burstRides = 0
        var requestsRefused = 0
        var queued = 0
        var offers = 0
        var refusals = 0
        var served = 0
        var missing = 0
        var completed = 0
        var cancelled = 0
        var reservations = 0
        var reservationsCancelled = 0
        var requested: [String: Requested] = [:]
        var servedRides: [ServedRide] = []
    }

    private let state = Mutex(State())
    private let keepsAcknowledgedFixes: Bool

    /// An empty tally; one that keeps every fix acknowledged when
    /// `keepingAcknowledgedFixes`, else counts them only.
    public init(keepingAcknowledgedFixes: Bool = false) {
        keepsAcknowledgedFixes = keepingAcknowledgedFixes
    }

    func fixSent(_ kind: TerminalKind) { state.withLock { $0.fixesSent[kind, default: 0] += 1 } }
    func fixesAcknowledged(of deviceId: String, at times: [Date]) {
        state.withLock { state in
            state.fixesAcknowledged += times.count
            if keepsAcknowledgedFixes {
                state.acknowledgedFixes += times.map { AcknowledgedFix(deviceId: deviceId, time: $0) }
            }
        }
    }
    func gap() { state.withLock { $0.gaps += 1 } }
    func terminalFailed() { state.withLock { $0.terminalFailures += 1 } }
    func apiFailed(_ error: any Error) {
        let reason = String("\(error)".prefix(160))
        state.withLock {
            $0.apiFailures += 1
            $0.apiFailureReasons[reason, default: 0] += 1
        }
    }
    func apiRetried() { state.withLock { $0.apiRetries += 1 } }
    func driverAvailable() { state.withLock { $0.driversAvailable += 1 } }
    func burstRideOpened() { state.withLock { $0.burstRides += 1 } }
    func requestRefused() { state.withLock { $0.requestsRefused += 1 } }
    /// Ride `rideId` was queued: no taxi was free in its zone.
    func queued(_ rideId: String) {
        state.withLock {
            $0.queued += 1
            $0.requested[rideId]?.queued = true
        }
    }
    /// A driver answered the offer of ride `rideId`.
    func offerSeen(for rideId: String, accepted: Bool) {
        state.withLock {
            $0.offers += 1
            if !accepted {
                $0.refusals += 1
                $0.requested[rideId]?.refusals += 1
            }
        }
    }
    func missingPassenger() { state.withLock { $0.missing += 1 } }
    func completed() { state.withLock { $0.completed += 1 } }
    func cancelled() { state.withLock { $0.cancelled += 1 } }
    func reservationBooked() { state.withLock { $0.reservations += 1 } }
    func reservationCancelled() { state.withLock { $0.reservationsCancelled += 1 } }

    /// The taxi that took ride `rideId` set off for the pickup, on a drive
    /// of `driveSeconds` (standing included); `wasMoving`: it was driving
    /// (a free taxi cruising) rather than parked when it took the ride.
    func rideTaken(_ rideId: String, wasMoving: Bool, driveSeconds: Double?) {
        state.withLock {
            $0.requested[rideId]?.takenWhileMoving = wasMoving
            $0.requested[rideId]?.driveSeconds = driveSeconds
        }
    }

    /// Ride `rideId` was requested in zone `zoneId` at simulated time `at`,
    /// its passenger told `toldWaitSeconds`.
    func requested(_ rideId: String, zoneId: String?, at: Date, toldWaitSeconds: Double?) {
        state.withLock {
            $0.requests += 1
            $0.requested[rideId] = Requested(at: at, toldWaitSeconds: toldWaitSeconds, zoneId: zoneId)
        }
    }

    /// The taxi of ride `rideId` reached the pickup at simulated time `at`.
    func taxiArrived(for rideId: String, at: Date) {
        state.withLock { state in
            state.served += 1
            guard let request = state.requested.removeValue(forKey: rideId) else { return }
            let wait = at.timeIntervalSince(request.at)
            state.servedRides.append(ServedRide(
                rideId: rideId, zoneId: request.zoneId, requestedAt: request.at, toldWaitSeconds: request.toldWaitSeconds,
                waitSeconds: wait, queued: request.queued, refusals: request.refusals,
                takenWhileMoving: request.takenWhileMoving, driveSeconds: request.driveSeconds))
        }
    }

    /// Every ride asked for now whose taxi reached the pickup so far, in that order.
    public var servedRides: [ServedRide] { state.withLock { $0.servedRides } }

    /// Every fix the service acknowledged, in the order the answers came;
    /// empty unless the tally was made keeping them.
    public var acknowledgedFixes: [AcknowledgedFix] { state.withLock { $0.acknowledgedFixes } }

    /// The figures so far.
    public var summary: SimulationSummary {
        state.withLock { state in
            let waits = state.servedRides.map(\.waitSeconds).sorted()
            let estimates = state.servedRides.compactMap { ride in
                ride.toldWaitSeconds.map { (told: $0, actual: ride.waitSeconds) }
            }.filter { $0.actual > 0 }
            let errors = estimates.map { abs($0.told - $0.actual) / $0.actual * 100 }.sorted()
            return SimulationSummary(
                fixesSent: state.fixesSent.values.reduce(0, +),
                fixesByProtocol: Dictionary(uniqueKeysWithValues: state.fixesSent.map { ($0.key.rawValue, $0.value) }),
                fixesAcknowledged: state.fixesAcknowledged, gaps: state.gaps, terminalFailures: state.terminalFailures,
                apiFailures: state.apiFailures, apiRetries: state.apiRetries,
                apiFailureReasons: state.apiFailureReasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3).map { "\($0.value)× \($0.key)" }, driversAvailable: state.driversAvailable, requests: state.requests,
                burstRides: state.burstRides,
                requestsRefused: state.requestsRefused, queued: state.queued, offers: state.offers, refusals: state.refusals,
                served: state.served, missing: state.missing, completed: state.completed, cancelled: state.cancelled,
                reservations: state.reservations, reservationsCancelled: state.reservationsCancelled,
                waitP50Seconds: Self.percentile(waits, 0.5), waitP90Seconds: Self.percentile(waits, 0.9),
                estimated: errors.count, estimateMdAPEPercent: Self.percentile(errors, 0.5),
                estimateBiasSeconds: Self.percentile(estimates.map { $0.told - $0.actual }.sorted(), 0.5))
        }
    }

    /// The `fraction` percentile of `sorted` (nearest rank), nil when empty.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
