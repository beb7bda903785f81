import GeoKit

/// Every address, named place and street of a city: what ``PlaceIndex``
/// searches, kept in the city's graph file (``PlaceCatalog/encoded()``).
public struct PlaceCatalog: Sendable, Equatable {
    /// Addresses and named places.
    public var places: [Place]
    /// Named streets.
    public var streets: [Street]

    /// Creates a catalog; see the properties.
    public init(places: [Place], streets: [Street]) {
        self.places = places
        self.streets = streets
    }

    /// How many addresses (house numbers) the catalog holds.
    public var addressCount: Int { places.count { $0.houseNumber != nil } }
}

extension PlaceCatalog {
    /// The tags whose named features are places, in the order a feature's
    /// category is chosen, with the values that count (empty: any value).
    static let placeCategories: [(key: String, values: Set<String>)] = [
        ("amenity", []), ("railway", ["station", "halt", "tram_stop"]), ("public_transport", ["station"]),
        ("aeroway", ["aerodrome", "terminal"]), ("tourism", []), ("shop", []), ("healthcare", []),
        ("leisure", []), ("historic", []), ("office", []), ("place", []), ("man_made", []), ("building", []),
    ]

    /// Two features with the same house number and street this close are
    /// one address (a node and the building it stands in, say).
    static let sameAddressMetres = 60.0

    /// Chooses the catalog's contents from an extract's named features:
    /// a feature with `addr:housenumber` and `addr:street` (or `addr:place`)
    /// is an address, a named feature with one of ``placeCategories`` is a
    /// place (and an address too when it has one), and the named highway
    /// ways make the streets. A way stands at the mean of its nodes.
    public init(features: [NamedFeature]) {
        var places: [Place] = []
        var streetLines: [String: [[Coordinate]]] = [:]
        for feature in features {
            let tags = feature.tags
            if feature.kind == .way, tags["highway"] != nil, let name = tags["name"], feature.points.count >= 2 {
                streetLines[name, default: []].append(feature.points)
                continue
            }
            let houseNumber = tags["addr:housenumber"]
            let street = tags["addr:street"] ?? tags["addr:place"]
            let category = Self.category(of: tags)
            let name = category == nil ? nil : tags["name"]
            guard (houseNumber != nil && street != nil) || name != nil else { continue }
            let centre = Self.centre(of: feature.points)
            if let houseNumber, let street {
                places.append(Place(kind: .address, houseNumber: houseNumber, street: street, city: tags["addr:city"],
                                    postcode: tags["addr:postcode"], coordinate: centre))
            }
            if let name {
                places.append(Place(kind: .place, name: name, houseNumber: street == nil ? nil : houseNumber, street: street,
                                    city: tags["addr:city"], postcode: tags["addr:postcode"], category: category,
                                    coordinate: centre))
            }
        }
        let streets = streetLines.map { Street(name: $0.key, lines: $0.value) }.sorted { $0.name < $1.name }
        self.init(places: Self.mergingSameAddresses(places), streets: streets)
    }

    private static func category(of tags: [String: String]) -> String? {
        guard tags["name"] != nil else { return nil }
        for (key, values) in placeCategories {
            if let value = tags[key], value != "no", values.isEmpty || values.contains(value) { return "\(key)=\(value)" }
        }
        return nil
    }

    private static func centre(of points: [Coordinate]) -> Coordinate {
        let distinct = points.count > 1 && points.first == points.last ? Array(points.dropLast()) : points
        let longitude = distinct.reduce(0) { $0 + $1.longitude } / Double(distinct.count)
        let latitude = distinct.reduce(0) { $0 + $1.latitude } / Double(distinct.count)
        return Coordinate(longitude: longitude, latitude: latitude)
    }

    /// Keeps one of each address the map gives twice (a node and the
    /// building it stands in, say).
    private static func mergingSameAddresses(_ places: [Place]) -> [Place] {
        var kept: [Place] = []
        var keptByAddress: [String: [Coordinate]] = [:]
        let text = PlaceText()
        for place in places {
            guard place.kind == .address, let address = place.streetAddress else {
                kept.append(place)
                continue
            }
            let key = text.words(address).joined(separator: " ")
            let isTwin = keptByAddress[key, default: []].contains {
                PlanarDistance.squaredMetres($0, place.coordinate) < sameAddressMetres * sameAddressMetres
            }
            guard !isTwin else { continue }
            keptByAddress[key, default: []].append(place.coordinate)
            kept.append(place)
        }
        return kept
    }
}
