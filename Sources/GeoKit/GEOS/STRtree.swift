import CGEOS

/// GEOS's sort-tile-recursive R-tree over geometry envelopes: the plain way
/// to find the few geometries whose bounding box holds a point.
///
/// Build it once (insertions then the first query freeze it); queries from
/// several threads are not safe, as GEOS builds the tree lazily.
public final class STRtree {
    private let tree: OpaquePointer
    private let envelopes: [Geometry]

    /// Indexes the envelope of each geometry; query results are positions in `geometries`.
    public init(_ geometries: [Geometry]) throws {
        let context = GEOSContext.current
        guard let tree = GEOSSTRtree_create_r(context.handle, 10) else { throw context.takeError("STRtree_create") }
        self.tree = tree
        envelopes = try geometries.map { geometry in
            try Geometry.wrap(GEOSEnvelope_r(context.handle, geometry.pointer), "envelope", context)
        }
        for (position, envelope) in envelopes.enumerated() {
            GEOSSTRtree_insert_r(context.handle, tree, envelope.pointer, UnsafeMutableRawPointer(bitPattern: position + 1))
        }
    }

    deinit {
        GEOSSTRtree_destroy_r(GEOSContext.current.handle, tree)
    }

    /// Positions of the geometries whose envelope intersects `geometry`, in no particular order.
    public func query(_ geometry: Geometry, into results: inout [Int]) {
        results.removeAll(keepingCapacity: true)
        withUnsafeMutablePointer(to: &results) { pointer in
            GEOSSTRtree_query_r(GEOSContext.current.handle, tree, geometry.pointer, { item, userData in
                guard let userData else { return }
                let results = userData.assumingMemoryBound(to: [Int].self)
                results.pointee.append(Int(bitPattern: item) - 1)
            }, pointer)
        }
    }
}
