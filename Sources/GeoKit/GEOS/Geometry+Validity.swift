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

    /// A valid geometry made by one of GEOS's MakeValid methods, keeping no
    /// collapsed parts (lines or points left where an area shrank to nothing).
    ///
    /// The two methods read a broken polygon differently: `.linework` nodes
    /// every ring and keeps the faces on alternate sides, `.structure` repairs
    /// each shell and hole on its own, then subtracts the holes from the
    /// shells. Where both agree, the drawing had one plain meaning.
    public func makeValid(method: MakeValidMethod) throws -> Geometry {
        let context = GEOSContext.current
        guard let parameters = GEOSMakeValidParams_create_r(context.handle) else {
            throw context.takeError("MakeValidParams")
        }
        defer { GEOSMakeValidParams_destroy_r(context.handle, parameters) }
        GEOSMakeValidParams_setKeepCollapsed_r(context.handle, parameters, 0)
        GEOSMakeValidParams_setMethod_r(context.handle, parameters,
                                        method == .linework ? GEOS_MAKE_VALID_LINEWORK : GEOS_MAKE_VALID_STRUCTURE)
        return try Geometry.wrap(GEOSMakeValidWithParams_r(context.handle, pointer, parameters), "MakeValid", context)
    }
}

/// GEOS's two ways of making a geometry valid (see ``Geometry/makeValid(method:)``).
public enum MakeValidMethod: Sendable {
    /// Nodes all rings together and rebuilds polygons from the linework.
    case linework
    /// Repairs shells and holes separately, then subtracts holes from shells.
    case structure
}
