/// An error raised while building or operating on a geometry.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
    /// GEOS refused an operation; `message` is GEOS's own text.
    case geos(operation: String, message: String)
    /// Coordinates that cannot form the requested geometry.
    case invalidCoordinates(String)

    public var description: String {
        switch self {
        case .geos(let operation, let message): "GEOS \(operation) failed: \(message)"
        case .invalidCoordinates(let reason): "invalid coordinates: \(reason)"
        }
    }
}
