/// An axis-aligned rectangle in longitude/latitude degrees (or any planar units).
public struct BoundingBox: Hashable, Sendable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    /// Creates a box from its corners; `min` must not exceed `max`.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest box holding every coordinate, or nil for none.
    public init?<S: Sequence>(enclosing coordinates: S) where S.Element == Coordinate {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(minX: first.longitude, minY: first.latitude, maxX: first.longitude, maxY: first.latitude)
        while let next = iterator.next() { extend(toInclude: next) }
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var center: Coordinate { Coordinate(longitude: (minX + maxX) / 2, latitude: (minY + maxY) / 2) }

    /// Grows the box so that it holds `point`.
    public mutating func extend(toInclude point: Coordinate) {
        minX = Swift.min(minX, point.longitude)
        minY = Swift.min(minY, point.latitude)
        maxX = Swift.max(maxX, point.longitude)
        maxY = Swift.max(maxY, point.latitude)
    }

    /// The box holding both boxes.
    public func union(_ other: BoundingBox) -> BoundingBox {
        BoundingBox(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
                    maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// True when the closed boxes share at least one point.
    public func intersects(_ other: BoundingBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// True when the closed box holds the point.
    public func contains(_ point: Coordinate) -> Bool {
        point.longitude >= minX && point.longitude <= maxX && point.latitude >= minY && point.latitude <= maxY
    }

    /// The box grown by `margin` on every side.
    public func expanded(by margin: Double) -> BoundingBox {
        BoundingBox(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    public var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }
}
