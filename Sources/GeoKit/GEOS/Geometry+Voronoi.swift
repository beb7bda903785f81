import CGEOS

extension Geometry {
    /// The Voronoi cells of `sites`: for each distinct site, the polygon of
    /// the plane nearer to it than to any other, as a GeometryCollection in
    /// no particular order, reaching at least over `extent`'s bounding box.
    ///
    /// Distances are planar: give sites in a metric projection.
    public static func voronoiCells(of sites: [Coordinate], extent: Geometry) throws -> Geometry {
        let points = try collection(sites.map { try point($0) })
        let context = GEOSContext.current
        return try wrap(GEOSVoronoiDiagram_r(context.handle, points.pointer, extent.pointer, 0, 0), "voronoiDiagram", context)
    }
}
