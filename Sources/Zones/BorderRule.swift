/// The rule that gives every point at most one zone (SPEC Z2).
///
/// A point belongs to a zone when the zone's closed polygon covers it:
/// interior **and** boundary. Where several zones cover a point, because it
/// lies on a shared edge or vertex, or in a sliver where two zones overlap
/// within the load tolerance, the zone with the **smallest id** wins, ids
/// compared as ``ZoneID`` orders them (whole numbers numerically, before any
/// other id; other ids by Unicode scalars). A point covered by no zone is
/// outside the service area.
///
/// The rule is deterministic (it does not depend on file order or on the
/// index), total, and cheap to state to a dispatcher: "on the line, the
/// lower zone number takes it". ``ZoneSet`` keeps zones in this order, so
/// "smallest id" is "first covering zone in the set".
public enum BorderRule {
    /// Of the positions (in ``ZoneSet/zones``) of the zones covering a point, the winner.
    public static func winner<C: Collection<Int>>(amongCovering positions: C) -> Int? {
        positions.min()
    }
}
