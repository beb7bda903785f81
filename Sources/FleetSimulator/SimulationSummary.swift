import Foundation

/// What a live simulation measured: the fixes its terminals sent, the
/// requests its passengers made and how they ended, and the waits.
public struct SimulationSummary: Sendable, Equatable, Codable {
    /// Fixes sent, over every protocol.
    public var fixesSent: Int
    /// Fixes sent per protocol (`line`, `teltonika`, `gt06`).
    public var fixesByProtocol: [String: Int]
    /// Fixes the service acknowledged.
    public var fixesAcknowledged: Int
    /// Fixes left unsent on purpose (GPS gaps).
    public var gaps: Int
    /// Terminal connections that failed (each reopened at the next fix).
    public var terminalFailures: Int
    /// API calls that failed or were answered unexpectedly, after the client's retries.
    public var apiFailures: Int
    /// Calls sent again after no answer or a 502, 503 or 504 (each with its first `Idempotency-Key`).
    public var apiRetries: Int = 0
    /// The commonest reasons of the failed calls, with their counts, at most three.
    public var apiFailureReasons: [String] = []
    /// Drivers who went available.
    public var driversAvailable: Int
    /// Rides requested (the service answered 201).
    public var requests: Int
    /// Of those, the rides the bursts opened (`--burst`, SIGUSR1).
    public var burstRides: Int = 0
    /// Requests the service refused (outside the service area, say).
    public var requestsRefused: Int
    /// Requests queued for want of a free taxi (then confirmed).
    public var queued: Int
    /// Offers drivers answered.
    public var offers: Int
    /// Offers drivers refused.
    public var refusals: Int
    /// Rides whose taxi reached the pickup.
    public var served: Int
    /// Pickups where the passenger was missing.
    public var missing: Int
    /// Rides completed at the destination.
    public var completed: Int
    /// Requests their passenger cancelled.
    public var cancelled: Int
    /// Reservations booked.
    public var reservations: Int
    /// Reservations their passenger cancelled.
    public var reservationsCancelled: Int
    /// Median wait from request to the taxi at the pickup, simulated seconds.
    public var waitP50Seconds: Double?
    /// 90th percentile of the same.
    public var waitP90Seconds: Double?
    /// Served rides whose passenger was told a wait beforehand (`GET /v1/waits`).
    public var estimated: Int
    /// Median absolute percentage error of the wait told against the wait had.
    public var estimateMdAPEPercent: Double?
    /// Median of the wait told minus the wait had, seconds: below 0, the
    /// service tells waits shorter than they turn out.
    public var estimateBiasSeconds: Double?

    /// The one-line progress report.
    public func progressLine(simulated: Date, taxis: Int, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "EEE HH:mm"
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return "\(formatter.string(from: simulated)): \(taxis) taxis (\(driversAvailable) went available), "
            + "\(fixesSent) fixes sent, \(fixesAcknowledged) acknowledged; \(requests) requests, \(served) served, "
            + "\(completed) completed, \(cancelled) cancelled; wait p50 \(Self.seconds(waitP50Seconds))"
    }

    /// The summary printed at the end.
    public var text: String {
        let protocols = fixesByProtocol.keys.sorted().map { "\($0) \(fixesByProtocol[$0] ?? 0)" }.joined(separator: ", ")
        return """
            fixes: \(fixesSent) sent (\(protocols)), \(fixesAcknowledged) acknowledged, \(gaps) left out as GPS gaps, \(terminalFailures) connection failures
            rides: \(requests) requested (\(queued) queued), \(requestsRefused) refused by the service, \(served) served, \(completed) completed, \(missing) passengers missing, \(cancelled) cancelled\(burstRides > 0 ? "; \(burstRides) of the requests by bursts" : "")
            offers: \(offers) answered, \(refusals) refused by drivers
            reservations: \(reservations) booked, \(reservationsCancelled) cancelled
            wait from request to the taxi at the pickup: p50 \(Self.seconds(waitP50Seconds)), p90 \(Self.seconds(waitP90Seconds))
            wait told beforehand vs had, over \(estimated) rides: MdAPE \(estimateMdAPEPercent.map { String(format: "%.1f %%", $0) } ?? "-"), told minus had median \(Self.seconds(estimateBiasSeconds))
            API calls failed: \(apiFailures) (after \(apiRetries) retries)\(apiFailureReasons.map { "\n  " + $0 }.joined())

            """
    }

    private static func seconds(_ value: Double?) -> String {
        value.map { String(format: "%.0f s", $0) } ?? "-"
    }
}
