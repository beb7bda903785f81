import CGEOS

extension Geometry {
    /// The shared part of two geometries.
    public func intersection(_ other: Geometry) throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSIntersection_r(context.handle, pointer, other.pointer), "intersection", context)
    }

    /// The union of two geometries.
    public func union(_ other: Geometry) throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSUnion_r(context.handle, pointer, other.pointer), "union", context)
    }

    /// The boundary (rings of a polygon, as lines).
    public func boundary() throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSBoundary_r(context.handle, pointer), "boundary", context)
    }

    /// True when the closed geometries share at least one point.
    public func intersects(_ other: Geometry) -> Bool {
        GEOSIntersects_r(GEOSContext.current.handle, pointer, other.pointer) == 1
    }

    /// True when no point of `other` lies outside this geometry.
    public func covers(_ other: Geometry) -> Bool {
        GEOSCovers_r(GEOSContext.current.handle, pointer, other.pointer) == 1
    }

    /// The DE-9IM matrix of the two geometries, as GEOS writes it (9 characters).
    public func relate(_ other: Geometry) throws -> String {
        let context = GEOSContext.current
        guard let matrix = GEOSRelate_r(context.handle, pointer, other.pointer) else {
            throw context.takeError("relate")
        }
        defer { GEOSFree_r(context.handle, matrix) }
        return String(cString: matrix)
    }

    /// The smallest distance between the geometries, in coordinate units.
    public func distance(to other: Geometry) throws -> Double {
        let context = GEOSContext.current
        var value = 0.0
        guard GEOSDistance_r(context.handle, pointer, other.pointer, &value) == 1 else {
            throw context.takeError("distance")
        }
        return value
    }

    /// A simplified copy that keeps the topology valid (Douglas-Peucker, tolerance in coordinate units).
    public func simplified(tolerance: Double) throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSTopologyPreserveSimplify_r(context.handle, pointer, tolerance),
                                 "simplify", context)
    }

    /// The polygon members: itself for a polygon, its parts for a multipolygon.
    public var parts: [Geometry] {
        let context = GEOSContext.current
        let count = Int(GEOSGetNumGeometries_r(context.handle, pointer))
        if GEOSGeomTypeId_r(context.handle, pointer) == Int32(GEOS_POLYGON.rawValue) { return [self] }
        return (0..<count).compactMap { index in
            GEOSGetGeometryN_r(context.handle, pointer, Int32(index))
                .flatMap { GEOSGeom_clone_r(context.handle, $0) }
                .map { Geometry(owning: $0) }
        }
    }

    /// The coordinates of every ring of a polygon geometry, exterior first.
    ///
    /// For a multipolygon, each member's rings follow one another.
    public var polygonRings: [[Coordinate]] {
        let context = GEOSContext.current
        var rings: [[Coordinate]] = []
        for part in parts {
            guard let exterior = GEOSGetExteriorRing_r(context.handle, part.pointer) else { continue }
            rings.append(Geometry.coordinates(of: exterior, context: context))
            let holes = GEOSGetNumInteriorRings_r(context.handle, part.pointer)
            for index in 0..<max(0, holes) {
                if let hole = GEOSGetInteriorRingN_r(context.handle, part.pointer, index) {
                    rings.append(Geometry.coordinates(of: hole, context: context))
                }
            }
        }
        return rings
    }

    /// The coordinates of a line or ring geometry.
    static func coordinates(of line: OpaquePointer, context: GEOSContext) -> [Coordinate] {
        guard let sequence = GEOSGeom_getCoordSeq_r(context.handle, line) else { return [] }
        var size: UInt32 = 0
        GEOSCoordSeq_getSize_r(context.handle, sequence, &size)
        var result = [Coordinate](repeating: Coordinate(longitude: 0, latitude: 0), count: Int(size))
        result.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: Double.self) { doubles in
                _ = GEOSCoordSeq_copyToBuffer_r(context.handle, sequence, doubles.baseAddress, 0, 0)
            }
        }
        return result
    }
}
