import Foundation

/// How close estimated durations are to measured ones, in the two figures
/// the taxi-trip literature reports: the median absolute percentage error
/// and the root mean squared logarithmic error (log(1 + seconds)).
public struct TravelTimeAccuracy: Sendable, Equatable, CustomStringConvertible {
    /// Trips scored.
    public var trips: Int
    /// Median of |estimate − measured| / measured, as a fraction.
    public var medianAbsolutePercentageError: Double
    /// sqrt(mean((log(1 + estimate) − log(1 + measured))²)).
    public var rootMeanSquaredLogError: Double

    /// Scores `estimated` against `measured`, pairwise.
    public init(estimated: [Double], measured: [Double]) {
        precondition(estimated.count == measured.count)
        trips = estimated.count
        guard trips > 0 else {
            medianAbsolutePercentageError = .nan
            rootMeanSquaredLogError = .nan
            return
        }
        let errors = zip(estimated, measured).map { abs($0 - $1) / $1 }.sorted()
        medianAbsolutePercentageError = trips % 2 == 1
            ? errors[trips / 2] : (errors[trips / 2 - 1] + errors[trips / 2]) / 2
        let squared = zip(estimated, measured).map { pow(log1p($0) - log1p($1), 2) }
        rootMeanSquaredLogError = (squared.reduce(0, +) / Double(trips)).squareRoot()
    }

    public var description: String {
        String(format: "MdAPE %.1f %%, RMSLE %.3f over %d trips", medianAbsolutePercentageError * 100, rootMeanSquaredLogError, trips)
    }
}
