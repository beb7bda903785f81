import Foundation

/// What `mytaxi dispatch simulate` simulates: a fleet, a demand, how long,
/// how often drivers refuse, and the seed every random choice comes from.
public struct SimulationSettings: Sendable, Equatable {
    /// Taxis on duty from the start, each at a random road node of the service area.
    public var taxis: Int
    /// Passengers asking for a taxi now, per hour (Poisson arrivals).
    public var requestsPerHour: Double
    /// Hours of city time simulated.
    public var hours: Double
    /// The share of offers a driver refuses, 0...1.
    public var refusalRate: Double
    /// The seed of every random choice: same seed, same report.
    public var seed: UInt64
    /// The share of passengers who ask to share the taxi, 0...1 (SPEC D10).
    public var sharedShare: Double = 0
    /// Whether those passengers share: false runs the same demand with each
    /// riding alone, for the comparison.
    public var sharing = true
    /// How long a queued passenger waits for an offer before cancelling.
    public var patience: Duration = .seconds(1800)

    /// Settings for `taxis` taxis, `requestsPerHour` requests an hour over `hours` hours.
    public init(taxis: Int, requestsPerHour: Double, hours: Double, refusalRate: Double = 0, seed: UInt64 = 1) {
        self.taxis = taxis
        self.requestsPerHour = requestsPerHour
        self.hours = hours
        self.refusalRate = refusalRate
        self.seed = seed
    }
}
