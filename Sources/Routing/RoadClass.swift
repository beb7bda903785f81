/// The road classes the car and foot profiles route on, from OSM `highway=*`.
///
/// Speed profiles (SPEC R4) give one factor per class and hour of the week,
/// so the class travels with every edge.
public enum RoadClass: UInt8, CaseIterable, Sendable {
    case motorway, motorwayLink, trunk, trunkLink, primary, primaryLink
    case secondary, secondaryLink, tertiary, tertiaryLink
    case unclassified, residential, livingStreet, service
    /// Foot-only ways: footway, path, pedestrian, steps, cycleway with foot access...
    case footway
}
