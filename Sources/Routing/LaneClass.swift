/// How wide a road is in one direction, from OSM `lanes=*`: what the
/// narrow-street speed factor of a ``SpeedProfile`` keys on.
///
/// Streets with one or two lanes per direction (the crosstown streets of a
/// grid city, with delivery vans double-parked in one of them) flow slower
/// than their class says; wider roads (avenues, boulevards) do not. Ways
/// without a `lanes` tag are ``untagged``, a class of their own, so a
/// profile never guesses their width.
public enum LaneClass: UInt8, CaseIterable, Sendable {
    /// No `lanes` tag (or an unreadable one).
    case untagged
    /// At most ``narrowLanesPerDirection`` lanes in this direction.
    case narrow
    /// More lanes than that.
    case wide

    /// The most lanes per direction a narrow street has.
    public static let narrowLanesPerDirection = 2.0

    /// The class of a direction with `lanesPerDirection` lanes, ``untagged`` when unknown.
    public init(lanesPerDirection: Double?) {
        guard let lanesPerDirection else {
            self = .untagged
            return
        }
        self = lanesPerDirection <= Self.narrowLanesPerDirection ? .narrow : .wide
    }

    /// The name profile files use (`narrow`, `wide`, `untagged`).
    public var name: String { String(describing: self) }
}
