import Foundation

/// What a simulation measured, per zone and overall (SPEC D9): how the
/// requests went, how long passengers waited for their taxi, and how far
/// the wait told at request time was from the wait they had.
public struct SimulationReport: Sendable, Equatable, Codable {
    /// The figures of one zone, or of the whole city.
    public struct Figures: Sendable, Equatable, Codable {
        /// Requests opened (pickup in the zone).
        public var requests = 0
        /// Offers made to drivers.
        public var offers = 0
        /// Offers refused.
        public var refusals = 0
        /// Passengers picked up.
        public var served = 0
        /// Requests cancelled (the passenger gave up waiting).
        public var cancelled = 0
        /// Median wait from request to the taxi at the pickup, seconds.
        public var waitP50Seconds: Double?
        /// 90th percentile of the same, seconds.
        public var waitP90Seconds: Double?
        /// Median absolute percentage error of the wait told at request time against the actual wait.
        public var estimateMdAPEPercent: Double?
        /// Mean of told minus actual wait, seconds (negative: waits were longer than told).
        public var estimateBiasSeconds: Double?
        /// Served requests that were told a wait, which the error is taken over.
        public var estimated = 0

        /// No request yet.
        public init() {}
    }

    /// One zone's figures.
    public struct ZoneFigures: Sendable, Equatable, Codable {
        /// The zone's id.
        public var zone: String
        /// Its figures.
        public var figures: Figures
    }

    /// Taxis simulated.
    public var taxis: Int
    /// Requests an hour simulated.
    public var requestsPerHour: Double
    /// Hours of city time simulated.
    public var hours: Double
    /// The share of offers refused.
    public var refusalRate: Double
    /// The seed.
    public var seed: UInt64
    /// Requests whose pickup was outside every zone (refused).
    public var refusedOutsideServiceArea: Int
    /// The whole city.
    public var overall: Figures
    /// Every zone with at least one request, by zone id.
    public var zones: [ZoneFigures]
    /// What sharing measured, when a share of passengers asked to share (SPEC D10).
    public var sharing: SharingFigures?

    /// The driving of the fleet and of the passengers who asked to share:
    /// the same figures with sharing and without it (the opt-in riders then
    /// each ride alone) compare the two.
    public struct SharingFigures: Sendable, Equatable, Codable {
        /// Whether the riders who asked to share did (false: the run without sharing).
        public var shared: Bool
        /// Requests whose passenger asked to share.
        public var optedIn: Int
        /// Of those, the requests that joined a taxi already on a shared ride.
        public var matched: Int
        /// Kilometres the whole fleet drove to pickups and with passengers.
        public var vehicleKilometres: Double
        /// Hours it drove.
        public var vehicleHours: Double
        /// Kilometres driven for the riders who asked to share: to their
        /// pickups and with them aboard (on a shared ride, its every leg).
        public var optInVehicleKilometres: Double
        /// Hours driven for them.
        public var optInVehicleHours: Double
        /// Of the riders who asked to share, those picked up.
        public var optInServed: Int
        /// Their mean wait from request to pickup, seconds.
        public var waitMeanSeconds: Double?
        /// The 90th percentile of that wait, seconds.
        public var waitP90Seconds: Double?
        /// Their mean time in the taxi beyond the trip alone, seconds.
        public var addedDelayMeanSeconds: Double?
        /// The 90th percentile of that delay, seconds.
        public var addedDelayP90Seconds: Double?
        /// Riders picked up later than their bound (those who joined a
        /// shared ride) or longer in the taxi than theirs: none, unless the
        /// plan and the drive disagree.
        public var beyondBounds: Int
    }
}
