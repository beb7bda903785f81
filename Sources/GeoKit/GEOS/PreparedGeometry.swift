import CGEOS

/// A geometry prepared by GEOS for many repeated predicate tests.
///
/// GEOS builds a prepared geometry's internal indexes lazily, on first use,
/// without locking; `init` warms them with one call of each predicate this
/// type offers, so that afterwards any number of threads may query it at once.
public final class PreparedGeometry: @unchecked Sendable {
    /// The geometry this one prepares (kept alive as long as the prepared one).
    public let geometry: Geometry
    private let pointer: OpaquePointer

    /// Prepares `geometry` and warms its indexes.
    public init(_ geometry: Geometry) throws {
        let context = GEOSContext.current
        guard let prepared = GEOSPrepare_r(context.handle, geometry.pointer) else {
            throw context.takeError("prepare")
        }
        self.geometry = geometry
        self.pointer = prepared
        if let box = geometry.boundingBox {
            let probe = try Geometry.point(box.center)
            _ = intersects(probe)
            _ = containsProperly(probe)
        }
    }

    deinit {
        GEOSPreparedGeom_destroy_r(GEOSContext.current.handle, pointer)
    }

    /// True when the closed geometry shares a point with `other`.
    ///
    /// For a point, this is "the polygon covers the point", borders included.
    public func intersects(_ other: Geometry) -> Bool {
        GEOSPreparedIntersects_r(GEOSContext.current.handle, pointer, other.pointer) == 1
    }

    /// True when `other` lies in the interior, touching no border.
    public func containsProperly(_ other: Geometry) -> Bool {
        GEOSPreparedContainsProperly_r(GEOSContext.current.handle, pointer, other.pointer) == 1
    }

    /// True when the closed geometry covers the point at `coordinate`, borders included.
    ///
    /// Creates a temporary GEOS point; one call costs about a microsecond.
    public func covers(_ coordinate: Coordinate) -> Bool {
        let handle = GEOSContext.current.handle
        guard let point = GEOSGeom_createPointFromXY_r(handle, coordinate.longitude, coordinate.latitude) else {
            return false
        }
        defer { GEOSGeom_destroy_r(handle, point) }
        return GEOSPreparedIntersects_r(handle, pointer, point) == 1
    }
}
