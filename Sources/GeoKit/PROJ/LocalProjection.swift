import CPROJ

/// A metric projection centred on a city, made with PROJ: azimuthal
/// equidistant on the WGS84 ellipsoid, so that distances and areas near the
/// centre are true to well under 0.1 % across a metropolitan area.
///
/// A projection owns a PROJ context and is used by one thread at a time.
public final class LocalProjection {
    private let context: OpaquePointer
    private let transform: OpaquePointer
    /// The centre of the projection (where scale is exact).
    public let center: Coordinate

    /// Creates the projection centred on `center`.
    /// - Throws: ``GeometryError/invalidCoordinates(_:)`` when PROJ refuses it.
    public init(center: Coordinate) throws {
        guard center.isInRange else { throw GeometryError.invalidCoordinates("projection centre \(center) out of range") }
        guard let context = proj_context_create() else {
            throw GeometryError.invalidCoordinates("PROJ context could not be created")
        }
        let definition = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad "
            + "+step +proj=aeqd +lat_0=\(center.latitude) +lon_0=\(center.longitude) +ellps=WGS84"
        guard let transform = proj_create(context, definition) else {
            let message = String(cString: proj_context_errno_string(context, proj_context_errno(context)))
            proj_context_destroy(context)
            throw GeometryError.invalidCoordinates("PROJ refused the local projection: \(message)")
        }
        self.context = context
        self.transform = transform
        self.center = center
    }

    deinit {
        proj_destroy(transform)
        proj_context_destroy(context)
    }

    /// Projects WGS84 positions to metres east (x) and north (y) of the centre.
    ///
    /// The result reuses ``Coordinate`` as a plain (x, y) pair in metres.
    public func project(_ coordinates: [Coordinate]) -> [Coordinate] {
        apply(coordinates, PJ_FWD)
    }

    /// Turns positions in metres from the centre back into WGS84 longitude and latitude.
    public func unproject(_ coordinates: [Coordinate]) -> [Coordinate] {
        apply(coordinates, PJ_INV)
    }

    /// Projects every ring of a polygon geometry into a new geometry in metres.
    public func project(_ geometry: Geometry) throws -> Geometry {
        try apply(geometry, PJ_FWD)
    }

    /// Turns a polygon geometry in metres from the centre back into WGS84.
    public func unproject(_ geometry: Geometry) throws -> Geometry {
        try apply(geometry, PJ_INV)
    }

    private func apply(_ coordinates: [Coordinate], _ direction: PJ_DIRECTION) -> [Coordinate] {
        var result = coordinates
        result.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: Double.self, capacity: buffer.count * 2) { doubles in
                let stride = MemoryLayout<Coordinate>.stride
                _ = proj_trans_generic(transform, direction,
                                       doubles, stride, buffer.count,
                                       doubles + 1, stride, buffer.count,
                                       nil, 0, 0, nil, 0, 0)
            }
        }
        return result
    }

    private func apply(_ geometry: Geometry, _ direction: PJ_DIRECTION) throws -> Geometry {
        var polygons: [Geometry] = []
        for part in geometry.parts {
            let rings = part.polygonRings.map { apply($0, direction) }
            guard let exterior = rings.first else { continue }
            polygons.append(try Geometry.polygon(exterior: exterior, holes: Array(rings.dropFirst())))
        }
        return polygons.count == 1 ? polygons[0] : try Geometry.multiPolygon(polygons)
    }
}
