import CGEOS

/// An immutable GEOS geometry, owned by Swift and freed when released.
///
/// Geometries are read-only once built, so they may be shared between
/// threads: every operation runs on the calling thread's ``GEOSContext``.
public final class Geometry: @unchecked Sendable {
    /// The owned GEOS pointer.
    let pointer: OpaquePointer

    /// Takes ownership of a GEOS geometry pointer.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        GEOSGeom_destroy_r(GEOSContext.current.handle, pointer)
    }

    /// Wraps a GEOS result, turning NULL into the context's error.
    static func wrap(_ result: OpaquePointer?, _ operation: String, _ context: GEOSContext) throws -> Geometry {
        guard let result else { throw context.takeError(operation) }
        return Geometry(owning: result)
    }

    // MARK: Construction

    /// A point at `coordinate`.
    public static func point(_ coordinate: Coordinate) throws -> Geometry {
        let context = GEOSContext.current
        return try wrap(GEOSGeom_createPointFromXY_r(context.handle, coordinate.longitude, coordinate.latitude),
                        "createPoint", context)
    }

    /// A linear ring; the caller closes it (first == last) and gives at least 4 positions.
    static func linearRing(_ ring: [Coordinate], context: GEOSContext) throws -> OpaquePointer {
        let sequence = try coordinateSequence(ring, context: context)
        guard let linearRing = GEOSGeom_createLinearRing_r(context.handle, sequence) else {
            throw context.takeError("createLinearRing")
        }
        return linearRing
    }

    /// A polygon from an exterior ring and holes, each closed with at least 4 positions.
    public static func polygon(exterior: [Coordinate], holes: [[Coordinate]] = []) throws -> Geometry {
        let context = GEOSContext.current
        let shell = try linearRing(exterior, context: context)
        var holeRings: [OpaquePointer?] = []
        do {
            for hole in holes { holeRings.append(try linearRing(hole, context: context)) }
        } catch {
            GEOSGeom_destroy_r(context.handle, shell)
            for ring in holeRings { GEOSGeom_destroy_r(context.handle, ring) }
            throw error
        }
        let polygon = holeRings.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(context.handle, shell, buffer.baseAddress, UInt32(buffer.count))
        }
        return try wrap(polygon, "createPolygon", context)
    }

    /// A multipolygon holding copies of `polygons`.
    public static func multiPolygon(_ polygons: [Geometry]) throws -> Geometry {
        let context = GEOSContext.current
        var members: [OpaquePointer?] = polygons.map { GEOSGeom_clone_r(context.handle, $0.pointer) }
        let collection = members.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createCollection_r(context.handle, Int32(GEOS_MULTIPOLYGON.rawValue),
                                        buffer.baseAddress, UInt32(buffer.count))
        }
        return try wrap(collection, "createMultiPolygon", context)
    }

    /// An axis-aligned rectangle.
    public static func rectangle(_ box: BoundingBox) throws -> Geometry {
        let context = GEOSContext.current
        return try wrap(GEOSGeom_createRectangle_r(context.handle, box.minX, box.minY, box.maxX, box.maxY),
                        "createRectangle", context)
    }

    static func coordinateSequence(_ coordinates: [Coordinate], context: GEOSContext) throws -> OpaquePointer {
        let sequence = coordinates.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Double.self) { doubles in
                GEOSCoordSeq_copyFromBuffer_r(context.handle, doubles.baseAddress, UInt32(coordinates.count), 0, 0)
            }
        }
        guard let sequence else { throw context.takeError("createCoordinateSequence") }
        return sequence
    }

    // MARK: Properties

    /// The GEOS type name: "Polygon", "MultiPolygon", ...
    public var typeName: String {
        let context = GEOSContext.current
        guard let name = GEOSGeomType_r(context.handle, pointer) else { return "Unknown" }
        defer { GEOSFree_r(context.handle, name) }
        return String(cString: name)
    }

    /// True for an empty geometry.
    public var isEmpty: Bool { GEOSisEmpty_r(GEOSContext.current.handle, pointer) == 1 }

    /// The area in squared coordinate units (degrees² for WGS84 input).
    public var area: Double {
        var value = 0.0
        GEOSArea_r(GEOSContext.current.handle, pointer, &value)
        return value
    }

    /// The length (perimeter for areas) in coordinate units.
    public var length: Double {
        var value = 0.0
        GEOSLength_r(GEOSContext.current.handle, pointer, &value)
        return value
    }

    /// The geometry's bounding box; nil when empty.
    public var boundingBox: BoundingBox? {
        let handle = GEOSContext.current.handle
        var box = BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        guard GEOSGeom_getXMin_r(handle, pointer, &box.minX) == 1,
              GEOSGeom_getYMin_r(handle, pointer, &box.minY) == 1,
              GEOSGeom_getXMax_r(handle, pointer, &box.maxX) == 1,
              GEOSGeom_getYMax_r(handle, pointer, &box.maxY) == 1 else { return nil }
        return box
    }

    /// Well-known text, for messages and debugging.
    public var wkt: String {
        let context = GEOSContext.current
        guard let writer = GEOSWKTWriter_create_r(context.handle) else { return "" }
        defer { GEOSWKTWriter_destroy_r(context.handle, writer) }
        GEOSWKTWriter_setTrim_r(context.handle, writer, 1)
        guard let text = GEOSWKTWriter_write_r(context.handle, writer, pointer) else { return "" }
        defer { GEOSFree_r(context.handle, text) }
        return String(cString: text)
    }
}
