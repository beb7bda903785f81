import Foundation

/// The drive between two consecutive fixes of a taxi, as matched to the
/// roads: the edges driven (the first and last in part), when it left and
/// how long it took. What speeds are learned from.
public struct MatchedLeg: Sendable, Equatable {
    /// The edges driven, in order, each with the fraction of it driven.
    public var edges: [DrivenEdge]
    /// The time of the first fix.
    public var departure: Date
    /// Seconds between the two fixes.
    public var seconds: Double
    /// Metres along the matched path.
    public var metres: Double
}

/// Why a fix taught nothing about traffic; the metrics count each reason.
public enum UnmatchedReason: String, Sendable, CaseIterable {
    /// No road within ``MapMatchSettings/candidateRadiusMetres`` of the fix.
    case offRoad = "off_road"
    /// The taxi stood (at a rank, waiting for a client): no drive to measure.
    case standing
    /// Too long, or too short, since the taxi's previous fix.
    case gap
    /// No drive on the roads joins the two fixes in the time between them (a GPS jump).
    case jump
    /// The first fix of a taxi, or the first after one of the above: nothing to compare it with yet.
    case first
}

/// What ``FleetMatcher/match(taxi:at:time:)`` made of one fix.
public enum MatchOutcome: Sendable, Equatable {
    /// The drive since the taxi's previous fix.
    case matched(MatchedLeg)
    /// Why there is none.
    case unmatched(UnmatchedReason)
}
