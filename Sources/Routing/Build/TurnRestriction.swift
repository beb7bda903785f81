/// A turn restriction with a via node, read from a `type=restriction` relation
/// for one profile.
///
/// `no_*` values (`no_left_turn`, `no_u_turn`, ...) forbid going from the
/// `from` way onto the `to` way at the via node; `only_*` values
/// (`only_straight_on`, ...) forbid every other continuation. Restrictions
/// whose via is a way are not supported (see ``TurnRestriction/Skip``).
public struct TurnRestriction: Sendable, Equatable {
    /// Whether the restriction forbids one turn or allows only one.
    public enum Kind: Sendable, Equatable {
        /// `no_*`: the turn onto `toWay` is forbidden.
        case prohibitive
        /// `only_*`: the turn onto `toWay` is the only one allowed.
        case mandatory
    }

    /// Why a restriction relation was not applied; each case is counted in
    /// ``GraphBuildStatistics``.
    public enum Skip: String, Sendable, CaseIterable, Comparable {
        /// The via member is a way (or several): not supported by node splitting.
        case viaWay = "via way"
        /// A `from`, `via` or `to` member is missing (often cut off at the
        /// extract's boundary), repeated or of the wrong kind.
        case incomplete
        /// The value is neither `no_*` nor `only_*`.
        case unknownValue = "unknown value"
        /// The via node is not in the file (the restriction lies outside the
        /// extract), no routable edge of the `from` way arrives at it, or none
        /// of the `to` way leaves it (for example a way the profile excludes).
        case notOnGraph = "not on the graph"

        public static func < (lhs: Skip, rhs: Skip) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// What reading a relation for a profile gives.
    public enum Reading: Sendable, Equatable {
        /// A restriction to apply.
        case restriction(TurnRestriction)
        /// The relation does not bind this profile (no key it obeys, or an exemption).
        case notForProfile
        /// The relation binds the profile but cannot be applied.
        case skipped(Skip)
    }

    /// The OSM relation id.
    public var relationID: Int64
    /// OSM id of the way the turn comes from.
    public var fromWay: Int64
    /// Index of the via node in ``OSMExtract/nodeIDs``.
    public var viaNode: Int
    /// OSM id of the way the turn goes onto.
    public var toWay: Int64
    /// Prohibitive (`no_*`) or mandatory (`only_*`).
    public var kind: Kind

    /// Reads `relation` as a restriction binding `profile`.
    /// - Parameters:
    ///   - relation: a relation tagged `type=restriction`.
    ///   - profile: decides which restriction keys and exemptions count.
    ///   - extract: resolves the via node's OSM id.
    public static func read(_ relation: OSMRelation, for profile: any RoutingProfile,
                            in extract: OSMExtract) -> Reading {
        guard let key = profile.restrictionKeys.first(where: { relation.tags[$0] != nil }),
              let value = relation.tags[key] else { return .notForProfile }
        if let except = relation.tags["except"],
           except.split(separator: ";").contains(where: { profile.restrictionExemptions.contains($0.trimmingWhitespace()) }) {
            return .notForProfile
        }
        let kind: Kind
        if value.hasPrefix("no_") { kind = .prohibitive } else if value.hasPrefix("only_") { kind = .mandatory } else {
            return .skipped(.unknownValue)
        }
        let vias = relation.members.filter { $0.role == "via" }
        if vias.contains(where: { $0.kind == .way }) { return .skipped(.viaWay) }
        let froms = relation.members.filter { $0.role == "from" }
        let tos = relation.members.filter { $0.role == "to" }
        guard vias.count == 1, froms.count == 1, tos.count == 1,
              vias[0].kind == .node, froms[0].kind == .way, tos[0].kind == .way else { return .skipped(.incomplete) }
        guard let via = extract.nodeIndex(osmID: vias[0].ref) else { return .skipped(.notOnGraph) }
        return .restriction(TurnRestriction(relationID: relation.id, fromWay: froms[0].ref, viaNode: via,
                                            toWay: tos[0].ref, kind: kind))
    }
}
