import GeoKit

/// Something a person can name to say where a taxi should go: a house
/// number on a street, a street, or a named place (a station, a hospital, a
/// hotel, a neighbourhood).
public struct Place: Sendable, Equatable, Hashable {
    /// What kind of name a place answers to.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A house number on a street (`addr:housenumber` + `addr:street`).
        case address
        /// A named street: every named highway way of one name.
        case street
        /// A named place (`amenity`, `shop`, `tourism`, `railway` station, …).
        case place
    }

    /// What kind of name this is.
    public var kind: Kind
    /// The place's or the street's name; nil for a bare address.
    public var name: String?
    /// The house number, as the map spells it (`350`, `12A`).
    public var houseNumber: String?
    /// The street of the house number.
    public var street: String?
    /// The city (`addr:city`), when the map gives one.
    public var city: String?
    /// The postcode (`addr:postcode`), when the map gives one.
    public var postcode: String?
    /// What a named place is, as its OSM tag (`amenity=hospital`).
    public var category: String?
    /// Where a taxi would stop: the node, or the middle of a building or area.
    public var coordinate: Coordinate

    /// Creates a place; see the properties.
    public init(kind: Kind, name: String? = nil, houseNumber: String? = nil, street: String? = nil,
                city: String? = nil, postcode: String? = nil, category: String? = nil, coordinate: Coordinate) {
        self.kind = kind
        self.name = name
        self.houseNumber = houseNumber
        self.street = street
        self.city = city
        self.postcode = postcode
        self.category = category
        self.coordinate = coordinate
    }

    /// The street address, `350 5th Avenue`, when the place has a house number.
    public var streetAddress: String? {
        guard let houseNumber, let street else { return nil }
        return "\(houseNumber) \(street)"
    }

    /// How a person would read it back on the phone: `350 5th Avenue, New
    /// York 10118`, `Empire State Building, 350 5th Avenue`, `Broadway`.
    public var label: String {
        switch kind {
        case .street:
            return name ?? ""
        case .address:
            var label = streetAddress ?? street ?? ""
            if city != nil || postcode != nil { label += ", " }
            if let city { label += city }
            if let postcode { label += city == nil ? postcode : " " + postcode }
            return label
        case .place:
            let line = streetAddress ?? street
            guard let name else { return line ?? "" }
            return line.map { name + ", " + $0 } ?? name
        }
    }
}
