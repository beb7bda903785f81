import Foundation
import GeoKit
import Routing

/// A graph file as `mytaxi serve` and the routing commands load one: its
/// sections read and checked (``GraphFile/contents(of:)``), a router made
/// of them (``RoutingGraph/router(for:speedProfile:timeZone:maxSnapDistanceMetres:snapRadiusMetres:)``:
/// topology, speed profile, zones of edges) and one route asked of it, from
/// the first node to the last. A refusal is fine; a trap is a finding.
enum GraphFileFuzz {
    /// When the route leaves: a Monday morning, so that the profile's hours apply.
    static let depart = Date(timeIntervalSince1970: 1_795_420_800)

    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let contents = try? GraphFile.contents(of: bytes) else { return }
        if let source = contents.extraSections[GraphSource.sectionName] {
            _ = try? GraphSource(sectionPayload: source)
        }
        guard let router = try? RoutingGraph.router(for: contents) else { return }
        let coordinates = contents.graph.coordinates
        guard let first = coordinates.first, let last = coordinates.last else { return }
        _ = try? router.route(from: first, to: last, depart: depart, includeGeometry: true)
    }
}
