import GeoKit

/// Turns an ``OSMExtract`` into a ``RoadGraph`` for one ``RoutingProfile``.
///
/// 1. **Edges.** One directed edge per pair of consecutive way nodes, in each
///    direction the profile allows. Length is the haversine distance; duration
///    is length over the profile's speed, in milliseconds, at least 1 ms so
///    that no cycle costs nothing. Only nodes some edge touches are kept, and
///    they are numbered from 0.
///    Edges ending at a traffic signal learn whether they are its minor
///    approach (``SignalApproach``).
/// 2. **Turn restrictions** with a via node, by node splitting (see
///    ``GraphBuilder/applyRestrictions(_:to:statistics:)``).
/// 3. **Largest strongly connected component.** Everything else (car parks
///    with one-way exits drawn wrong, fragments cut at the extract's edge) is
///    dropped, so every kept node can reach every other.
///
/// The result's edges are sorted by tail (CSR); ``GraphBuildResult/edgeWayIDs``
/// keeps the OSM way of each edge.
public enum GraphBuilder {
    /// The long steps of a build, reported as they start.
    public enum Stage: String, Sendable {
        case edges = "building edges"
        case restrictions = "applying turn restrictions"
        case components = "keeping the largest strongly connected component"
    }

    /// Builds the graph of `extract` for `profile`.
    /// - Parameters:
    ///   - extract: the OSM data, as ``OSMExtract/init(contentsOf:)`` reads it.
    ///   - profile: which ways count, in which directions, how fast.
    ///   - progress: called at the start of each stage (for command-line progress).
    public static func build(_ extract: OSMExtract, profile: any RoutingProfile,
                             progress: (Stage) -> Void = { _ in }) -> GraphBuildResult {
        var statistics = GraphBuildStatistics()
        statistics.missingNodeReferences = extract.missingNodeReferences
        statistics.waysWithMissingNodes = extract.waysWithMissingNodes

        progress(.edges)
        var edges = EdgeList()
        var graphNode = [Int32](repeating: -1, count: extract.nodeIDs.count)
        func node(_ index: Int32) -> UInt32 {
            if graphNode[Int(index)] < 0 {
                graphNode[Int(index)] = Int32(edges.addNode(at: extract.nodeCoordinates[Int(index)]))
            }
            return UInt32(graphNode[Int(index)])
        }
        for way in extract.ways {
            guard let traversal = profile.traversal(of: way.tags),
                  traversal.forwardSpeedKmh != nil || traversal.backwardSpeedKmh != nil else { continue }
            statistics.routableWays += 1
            for (a, b) in zip(way.nodes, way.nodes.dropFirst()) where a != b {
                let metres = extract.nodeCoordinates[Int(a)].haversineDistance(to: extract.nodeCoordinates[Int(b)])
                let (from, to) = (node(a), node(b))
                if let speed = traversal.forwardSpeedKmh {
                    edges.addEdge(from: from, to: to, durationMs: durationMs(metres: metres, kmh: speed),
                                  lengthMetres: Float(metres), roadClass: traversal.roadClass,
                                  laneClass: traversal.forwardLanes, wayID: way.id)
                }
                if let speed = traversal.backwardSpeedKmh {
                    edges.addEdge(from: to, to: from, durationMs: durationMs(metres: metres, kmh: speed),
                                  lengthMetres: Float(metres), roadClass: traversal.roadClass,
                                  laneClass: traversal.backwardLanes, wayID: way.id)
                }
            }
        }

        let signalNodes = Set(extract.nodeHighwayTags.compactMap { index, value in
            profile.trafficSignalValues.contains(value) && graphNode[index] >= 0 ? UInt32(graphNode[index]) : nil
        })
        markSignalApproaches(in: &edges, signalNodes: signalNodes)

        progress(.restrictions)
        var restrictions: [(restriction: TurnRestriction, via: UInt32)] = []
        for relation in extract.restrictions {
            switch TurnRestriction.read(relation, for: profile, in: extract) {
            case .restriction(let restriction):
                let via = graphNode[restriction.viaNode]
                guard via >= 0 else {
                    statistics.restrictionsSkipped[.notOnGraph, default: 0] += 1
                    continue
                }
                restrictions.append((restriction, UInt32(via)))
            case .notForProfile:
                statistics.restrictionsNotForProfile += 1
            case .skipped(let reason):
                statistics.restrictionsSkipped[reason, default: 0] += 1
            }
        }
        applyRestrictions(restrictions, to: &edges, statistics: &statistics)

        progress(.components)
        statistics.nodesBeforeFilter = edges.nodeCount
        statistics.edgesBeforeFilter = edges.edgeCount
        return keepLargestComponent(of: edges, statistics: statistics)
    }

    /// Milliseconds to cover `metres` at `kmh`, rounded, at least 1.
    static func durationMs(metres: Double, kmh: Double) -> UInt32 {
        let milliseconds = (metres / (kmh / 3.6) * 1000).rounded()
        return UInt32(min(max(milliseconds, 1), Double(UInt32.max)))
    }
}
