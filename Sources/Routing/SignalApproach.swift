/// How an edge arrives at the junction it ends in, when a traffic signal
/// controls that junction: what the speed profile's minor-approach delay
/// keys on.
///
/// Signals along an avenue are timed for it (a green wave), so a car on the
/// avenue rarely stops; a car arriving from a side street waits for the
/// avenue's green. A delay at every signal penalises exactly the roads that
/// flow best, so the router only delays the approaches of a lower class than
/// the best road crossing there (``minor``).
public enum SignalApproach: UInt8, CaseIterable, Sendable {
    /// No signal at the edge's head.
    case none
    /// A signal, and no other road at the junction outranks this one.
    case major
    /// A signal where another road of a higher class crosses.
    case minor

    /// How important a road class is at a junction: 0 for motorways, growing
    /// for lesser roads; a link ranks with its road.
    public static func rank(of roadClass: RoadClass) -> Int {
        switch roadClass {
        case .motorway, .motorwayLink: 0
        case .trunk, .trunkLink: 1
        case .primary, .primaryLink: 2
        case .secondary, .secondaryLink: 3
        case .tertiary, .tertiaryLink: 4
        case .unclassified, .residential: 5
        case .livingStreet, .service: 6
        case .footway: 7
        }
    }
}
