import CGEOS

extension Geometry {
    /// Every polygon in the geometry, collections flattened, other kinds dropped.
    ///
    /// GEOS operations on areas (MakeValid, intersection, difference) may
    /// return a GeometryCollection mixing polygons with the lines and points
    /// where areas merely touch; a zone keeps only the polygons.
    public var polygons: [Geometry] {
        let context = GEOSContext.current
        let type = GEOSGeomTypeId_r(context.handle, pointer)
        if type == Int32(GEOS_POLYGON.rawValue) { return isEmpty ? [] : [self] }
        guard type == Int32(GEOS_MULTIPOLYGON.rawValue) || type == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) else {
            return []
        }
        let count = Int(GEOSGetNumGeometries_r(context.handle, pointer))
        return (0..<count).flatMap { index -> [Geometry] in
            guard let member = GEOSGetGeometryN_r(context.handle, pointer, Int32(index)),
                  let copy = GEOSGeom_clone_r(context.handle, member) else { return [] }
            return Geometry(owning: copy).polygons
        }
    }

    /// The polygons of the geometry as one Polygon (when there is one) or
    /// MultiPolygon, or nil when it has no area at all.
    public func polygonal() throws -> Geometry? {
        let found = polygons
        switch found.count {
        case 0: return nil
        case 1: return found[0]
        default: return try Geometry.multiPolygon(found)
        }
    }

    /// How many positions the geometry holds (closing positions of rings included).
    public var vertexCount: Int {
        Int(GEOSGetNumCoordinates_r(GEOSContext.current.handle, pointer))
    }
}
