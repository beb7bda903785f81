import CPROJ

/// A coordinate transformation between two coordinate reference systems
/// known to PROJ (e.g. `EPSG:2263`, New York Long Island in US feet, to
/// `EPSG:4326`), with axes in longitude-then-latitude (easting-then-northing)
/// order whatever the CRS's official axis order.
///
/// Owns a PROJ context: use one transform per thread.
public final class CRSTransform {
    private let context: OpaquePointer
    private let pipeline: OpaquePointer
    /// The source CRS, as given.
    public let source: String

    /// Creates the transformation from `source` to `target` (default WGS84).
    /// - Throws: ``GeometryError/invalidCoordinates(_:)`` naming the CRS PROJ does not know.
    public init(from source: String, to target: String = "EPSG:4326") throws {
        guard let context = proj_context_create() else {
            throw GeometryError.invalidCoordinates("PROJ context could not be created")
        }
        guard let raw = proj_create_crs_to_crs(context, source, target, nil) else {
            let message = String(cString: proj_context_errno_string(context, proj_context_errno(context)))
            proj_context_destroy(context)
            throw GeometryError.invalidCoordinates("PROJ cannot transform \(source) to \(target): \(message)")
        }
        defer { proj_destroy(raw) }
        guard let normalised = proj_normalize_for_visualization(context, raw) else {
            proj_context_destroy(context)
            throw GeometryError.invalidCoordinates("PROJ cannot order the axes of \(source) as x, y")
        }
        self.context = context
        self.pipeline = normalised
        self.source = source
    }

    deinit {
        proj_destroy(pipeline)
        proj_context_destroy(context)
    }

    /// The positions in the target CRS; a position PROJ cannot transform
    /// (outside the CRS's area) comes back with infinite values.
    public func transform(_ coordinates: [Coordinate]) -> [Coordinate] {
        var result = coordinates
        result.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: Double.self, capacity: buffer.count * 2) { doubles in
                let stride = MemoryLayout<Coordinate>.stride
                _ = proj_trans_generic(pipeline, PJ_FWD,
                                       doubles, stride, buffer.count,
                                       doubles + 1, stride, buffer.count,
                                       nil, 0, 0, nil, 0, 0)
            }
        }
        return result
    }
}
