import CGEOS

/// What GEOS says about a geometry's validity (OGC simple-features rules).
public struct Validity: Sendable, Equatable {
    /// True when the geometry is valid.
    public var isValid: Bool
    /// GEOS's reason, e.g. "Self-intersection"; nil when valid.
    public var reason: String?
    /// Where the problem is, when GEOS names a point.
    public var location: Coordinate?
}

extension Geometry {
    /// Checks validity and reports GEOS's reason and location.
    public var validity: Validity {
        let context = GEOSContext.current
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let valid = GEOSisValidDetail_r(context.handle, pointer, 0, &reason, &location)
        defer {
            if let reason { GEOSFree_r(context.handle, reason) }
            if let location { GEOSGeom_destroy_r(context.handle, location) }
        }
        if valid == 1 { return Validity(isValid: true) }
        var point: Coordinate?
        if let location {
            var x = 0.0, y = 0.0
            if GEOSGeomGetX_r(context.handle, location, &x) == 1, GEOSGeomGetY_r(context.handle, location, &y) == 1 {
                point = Coordinate(longitude: x, latitude: y)
            }
        }
        return Validity(isValid: false, reason: reason.map { String(cString: $0) } ?? "invalid geometry",
                        location: point)
    }

    /// A valid geometry covering the same points, made by GEOS's MakeValid.
    public func makeValid() throws -> Geometry {
        let context = GEOSContext.current
        return try Geometry.wrap(GEOSMakeValid_r(context.handle, pointer), "MakeValid", context)
    }
}
