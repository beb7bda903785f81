import GeoKit

/// The part of an OpenStreetMap file the router needs: highway ways, the
/// positions of their nodes, and turn-restriction relations.
///
/// It is raw map data with no routing policy applied: a ``RoutingProfile``
/// decides which ways are roads and ``GraphBuilder`` turns them into a
/// ``RoadGraph``. Ways that reference nodes missing from the file (common in
/// clipped extracts) are already split there: every ``OSMWay`` holds only
/// nodes with a known position, and the loss is counted.
public struct OSMExtract: Sendable {
    /// OSM ids of the nodes the ways use, sorted ascending.
    public var nodeIDs: [Int64]
    /// Position of each node, parallel to ``nodeIDs`` (WGS84 degrees).
    public var nodeCoordinates: [Coordinate]
    /// The `highway` tag of the nodes that have one (`traffic_signals`,
    /// `stop`, …), by index into ``nodeIDs``.
    public var nodeHighwayTags: [Int: String]
    /// Every `highway=*` way, in file order; a way cut by missing nodes appears
    /// once per piece of two or more nodes, each with the way's id and tags.
    public var ways: [OSMWay]
    /// Every relation tagged `type=restriction`.
    public var restrictions: [OSMRelation]
    /// Way node references whose node is not in the file.
    public var missingNodeReferences: Int
    /// Ways that referenced at least one missing node (split or dropped).
    public var waysWithMissingNodes: Int

    /// Creates an extract from its parts; `nodeIDs` must be sorted.
    public init(nodeIDs: [Int64], nodeCoordinates: [Coordinate], nodeHighwayTags: [Int: String] = [:], ways: [OSMWay],
                restrictions: [OSMRelation], missingNodeReferences: Int = 0, waysWithMissingNodes: Int = 0) {
        self.nodeIDs = nodeIDs
        self.nodeCoordinates = nodeCoordinates
        self.nodeHighwayTags = nodeHighwayTags
        self.ways = ways
        self.restrictions = restrictions
        self.missingNodeReferences = missingNodeReferences
        self.waysWithMissingNodes = waysWithMissingNodes
    }

    /// The index into ``nodeIDs`` of the node with OSM id `id`, or nil when
    /// the extract does not hold it (binary search).
    public func nodeIndex(osmID id: Int64) -> Int? {
        var low = 0, high = nodeIDs.count
        while low < high {
            let middle = (low + high) / 2
            if nodeIDs[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < nodeIDs.count && nodeIDs[low] == id ? low : nil
    }
}

/// An OSM way (or the piece of one between missing nodes) with its tags.
public struct OSMWay: Sendable, Equatable {
    /// The OSM way id.
    public var id: Int64
    /// Indices into ``OSMExtract/nodeIDs``, in way order; at least two.
    public var nodes: [Int32]
    /// All tags of the way.
    public var tags: [String: String]

    /// Creates a way from its id, node indices and tags.
    public init(id: Int64, nodes: [Int32], tags: [String: String]) {
        self.id = id
        self.nodes = nodes
        self.tags = tags
    }
}

/// An OSM relation with its members and tags (here: turn restrictions).
public struct OSMRelation: Sendable, Equatable {
    /// What a relation member refers to.
    public enum MemberKind: Sendable, Equatable {
        case node, way, relation
    }

    /// One member: the kind and OSM id of the object and its role.
    public struct Member: Sendable, Equatable {
        /// Whether the member is a node, a way or a relation.
        public var kind: MemberKind
        /// The member's OSM id.
        public var ref: Int64
        /// The member's role (`from`, `via`, `to` in restrictions).
        public var role: String

        /// Creates a member.
        public init(kind: MemberKind, ref: Int64, role: String) {
            self.kind = kind
            self.ref = ref
            self.role = role
        }
    }

    /// The OSM relation id.
    public var id: Int64
    /// Members in relation order.
    public var members: [Member]
    /// All tags of the relation.
    public var tags: [String: String]

    /// Creates a relation from its id, members and tags.
    public init(id: Int64, members: [Member], tags: [String: String]) {
        self.id = id
        self.members = members
        self.tags = tags
    }
}
