import GeoKit

/// Appends little-endian integers and coordinates to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func write<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func write(_ coordinate: Coordinate) {
        write(coordinate.longitude.bitPattern)
        write(coordinate.latitude.bitPattern)
    }
}

/// Reads what ``ByteWriter`` wrote, refusing to read past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func read<Integer: FixedWidthInteger>() throws(PlaceError) -> Integer {
        let size = MemoryLayout<Integer>.size
        guard remaining >= size else { throw .damaged(reason: "cut short at byte \(offset)") }
        var value = Integer.zero
        for index in 0..<size { value |= Integer(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func readCoordinate() throws(PlaceError) -> Coordinate {
        let longitude = Double(bitPattern: try read())
        let latitude = Double(bitPattern: try read())
        guard Coordinate(longitude: longitude, latitude: latitude).isInRange else {
            throw .damaged(reason: "position \(longitude),\(latitude) out of range")
        }
        return Coordinate(longitude: longitude, latitude: latitude)
    }

    mutating func bytes(_ count: Int) throws(PlaceError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw .damaged(reason: "cut short at byte \(offset)") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
}
