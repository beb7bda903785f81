import CGEOS

extension Geometry {
    /// A GeometryCollection holding copies of `members`, of any kinds.
    public static func collection(_ members: [Geometry]) throws -> Geometry {
        let context = GEOSContext.current
        var copies: [OpaquePointer?] = members.map { GEOSGeom_clone_r(context.handle, $0.pointer) }
        let collection = copies.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(context.handle, Int32(GEOS_GEOMETRYCOLLECTION.rawValue),
                                        buffer.baseAddress, UInt32(buffer.count))
        }
        return try wrap(collection, "createCollection", context)
    }

    /// The union of every member of a collection (or of a multi-geometry's parts), in one pass.
    public func unaryUnion() throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSUnaryUnion_r(context.handle, pointer), "unaryUnion", context)
    }

    /// The points of this geometry that are not in `other`.
    public func difference(_ other: Geometry) throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSDifference_r(context.handle, pointer, other.pointer), "difference", context)
    }

    /// The points in exactly one of the two geometries.
    public func symmetricDifference(_ other: Geometry) throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSSymDifference_r(context.handle, pointer, other.pointer),
                                 "symmetricDifference", context)
    }

    /// A position guaranteed to lie in the geometry (inside an area, on a line),
    /// the place a report points a planner to; nil for an empty geometry.
    public var pointOnSurface: Coordinate? {
        let context = GEOSContext.current
        guard !isEmpty, let point = GEOSPointOnSurface_r(context.handle, pointer) else { return nil }
        defer { GEOSGeom_destroy_r(context.handle, point) }
        var x = 0.0, y = 0.0
        guard GEOSGeomGetX_r(context.handle, point, &x) == 1, GEOSGeomGetY_r(context.handle, point, &y) == 1 else {
            return nil
        }
        return Coordinate(longitude: x, latitude: y)
    }
}

extension Geometry {
    /// The lines of the geometry joined end to end wherever exactly two meet,
    /// so that each resulting line runs from one junction to the next.
    public func lineMerged() throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSLineMerge_r(context.handle, pointer), "lineMerge", context)
    }

    /// The members of a multi-line (or the line itself), each its own geometry.
    public var lines: [Geometry] {
        let context = GEOSContext.current
        let type = GEOSGeomTypeId_r(context.handle, pointer)
        if type == Int32(GEOS_LINESTRING.rawValue) || type == Int32(GEOS_LINEARRING.rawValue) { return [self] }
        let count = Int(GEOSGetNumGeometries_r(context.handle, pointer))
        return (0..<count).flatMap { index -> [Geometry] in
            guard let member = GEOSGetGeometryN_r(context.handle, pointer, Int32(index)),
                  let copy = GEOSGeom_clone_r(context.handle, member) else { return [] }
            return Geometry(owning: copy).lines
        }
    }

    /// The polygons enclosed by the geometry's lines, which must be noded
    /// (crossing only at their ends), as a GeometryCollection.
    public func polygonized() throws -> Geometry {
        let context = GEOSContext.current
        var members: [OpaquePointer?] = [pointer]
        let result = members.withUnsafeMutableBufferPointer { buffer in
            GEOSPolygonize_r(context.handle, buffer.baseAddress, 1)
        }
        return try Geometry.wrap(result, "polygonize", context)
    }
}
