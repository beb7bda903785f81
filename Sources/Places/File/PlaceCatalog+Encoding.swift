import GeoKit

extension PlaceCatalog {
    /// The graph file's section holding the catalog (see ``encoded()``).
    public static let graphSection = "places"
    /// The layout version ``encoded()`` writes and ``init(encoded:)`` reads.
    public static let formatVersion: UInt32 = 1

    /// The catalog as bytes, for the graph file's ``graphSection``.
    ///
    /// Layout (little-endian): the version (UInt32); a string table (count,
    /// then each string's UTF-8 length and bytes), so a street named by a
    /// thousand addresses is stored once; the places (count, then each
    /// place's kind as a byte, six string references as Int32, -1 for none,
    /// and longitude and latitude as Float64); the streets (count, then each
    /// street's name reference, its line count, and each line's vertex count
    /// and vertices).
    public func encoded() -> [UInt8] {
        var strings: [String: Int32] = [:]
        var table: [String] = []
        func reference(_ text: String?) -> Int32 {
            guard let text else { return -1 }
            if let known = strings[text] { return known }
            strings[text] = Int32(table.count)
            table.append(text)
            return Int32(table.count - 1)
        }
        var body = ByteWriter()
        body.write(UInt32(places.count))
        for place in places {
            body.write(UInt8(Self.kindCodes.firstIndex(of: place.kind)!))
            for text in [place.name, place.houseNumber, place.street, place.city, place.postcode, place.category] {
                body.write(reference(text))
            }
            body.write(place.coordinate)
        }
        body.write(UInt32(streets.count))
        for street in streets {
            body.write(reference(street.name))
            body.write(UInt32(street.lines.count))
            for line in street.lines {
                body.write(UInt32(line.count))
                for vertex in line { body.write(vertex) }
            }
        }
        var bytes = ByteWriter()
        bytes.write(Self.formatVersion)
        bytes.write(UInt32(table.count))
        for text in table {
            let utf8 = Array(text.utf8)
            bytes.write(UInt32(utf8.count))
            bytes.bytes.append(contentsOf: utf8)
        }
        return bytes.bytes + body.bytes
    }

    /// Reads a catalog written by ``encoded()``.
    /// - Throws: ``PlaceError/damaged(reason:)`` when the bytes are cut short,
    ///   refer outside their string table or are of another version.
    public init(encoded bytes: [UInt8]) throws(PlaceError) {
        var reader = ByteReader(bytes)
        let version: UInt32 = try reader.read()
        guard version == Self.formatVersion else {
            throw .damaged(reason: "version \(version), this build reads version \(Self.formatVersion)")
        }
        let stringCount: UInt32 = try reader.read()
        var table: [String] = []
        table.reserveCapacity(Int(stringCount))
        for _ in 0..<stringCount {
            let length: UInt32 = try reader.read()
            table.append(String(decoding: try reader.bytes(Int(length)), as: UTF8.self))
        }
        func text(_ reference: Int32) throws(PlaceError) -> String? {
            guard reference >= 0 else { return nil }
            guard Int(reference) < table.count else { throw .damaged(reason: "string \(reference) of \(table.count)") }
            return table[Int(reference)]
        }
        let placeCount: UInt32 = try reader.read()
        var places: [Place] = []
        places.reserveCapacity(Int(placeCount))
        for _ in 0..<placeCount {
            let code: UInt8 = try reader.read()
            guard Int(code) < Self.kindCodes.count else { throw .damaged(reason: "place kind \(code)") }
            var fields: [String?] = []
            for _ in 0..<6 { fields.append(try text(try reader.read())) }
            places.append(Place(kind: Self.kindCodes[Int(code)], name: fields[0], houseNumber: fields[1], street: fields[2],
                                city: fields[3], postcode: fields[4], category: fields[5], coordinate: try reader.readCoordinate()))
        }
        let streetCount: UInt32 = try reader.read()
        var streets: [Street] = []
        for _ in 0..<streetCount {
            guard let name = try text(try reader.read()) else { throw .damaged(reason: "a street without a name") }
            let lineCount: UInt32 = try reader.read()
            var lines: [[Coordinate]] = []
            for _ in 0..<lineCount {
                let vertexCount: UInt32 = try reader.read()
                guard vertexCount >= 2 else { throw .damaged(reason: "a line of \(vertexCount) vertices on \(name)") }
                var line: [Coordinate] = []
                for _ in 0..<vertexCount { line.append(try reader.readCoordinate()) }
                lines.append(line)
            }
            guard !lines.isEmpty else { throw .damaged(reason: "street \(name) has no line") }
            streets.append(Street(name: name, lines: lines))
        }
        guard reader.isAtEnd else { throw .damaged(reason: "\(reader.remaining) bytes after the streets") }
        self.init(places: places, streets: streets)
    }

    private static let kindCodes: [Place.Kind] = [.address, .street, .place]
}
