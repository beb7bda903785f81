import GeoKit

/// What a point is called: its nearest address, or the street it is on and
/// the nearest cross street.
public struct ReverseGeocode: Sendable, Equatable {
    /// An address counts as the point's within this many metres.
    public static let addressReachMetres = 50.0
    /// A street counts as the point's within this many metres.
    public static let streetReachMetres = 200.0

    /// The address, or the street at the point's foot on it.
    public var place: Place
    /// Metres from the point to ``place``.
    public var distanceMetres: Double
    /// The street crossing ``place``'s street nearest the point, when it has one.
    public var crossStreet: String?

    /// Creates an answer; see the properties.
    public init(place: Place, distanceMetres: Double, crossStreet: String? = nil) {
        self.place = place
        self.distanceMetres = distanceMetres
        self.crossStreet = crossStreet
    }

    /// `350 5th Avenue`, or `Broadway near West 42nd Street`.
    public var label: String {
        guard place.kind == .street, let crossStreet else { return place.label }
        return "\(place.label) near \(crossStreet)"
    }
}

extension PlaceIndex {
    /// The address nearest `point` within ``ReverseGeocode/addressReachMetres``;
    /// else the nearest street within ``ReverseGeocode/streetReachMetres``
    /// with its cross street nearest the point; nil when neither is near.
    public func reverse(_ point: Coordinate) -> ReverseGeocode? {
        if let address = nearestAddress(to: point) { return address }
        return nearestStreet(to: point)
    }

    private func nearestAddress(to point: Coordinate) -> ReverseGeocode? {
        var best: (index: Int32, squared: Double)?
        for cell in ReverseGrid.cells(around: point, reach: 1) {
            for index in reverse.addressesByCell[cell, default: []] {
                let squared = PlanarDistance.squaredMetres(point, catalog.places[Int(index)].coordinate)
                if squared < best?.squared ?? .infinity { best = (index, squared) }
            }
        }
        guard let best, best.squared <= ReverseGeocode.addressReachMetres * ReverseGeocode.addressReachMetres else { return nil }
        return ReverseGeocode(place: catalog.places[Int(best.index)], distanceMetres: best.squared.squareRoot())
    }

    private func nearestStreet(to point: Coordinate) -> ReverseGeocode? {
        var best: (street: Int32, foot: Coordinate, metres: Double)?
        for cell in ReverseGrid.cells(around: point, reach: 2) {
            for segment in reverse.segmentsByCell[cell, default: []] {
                let foot = PlanarDistance.foot(of: point, on: segment.from, segment.to)
                if foot.metres < best?.metres ?? .infinity { best = (segment.street, foot.point, foot.metres) }
            }
        }
        guard let best, best.metres <= ReverseGeocode.streetReachMetres else { return nil }
        let street = catalog.streets[Int(best.street)]
        let crossing = reverse.crossings[Int(best.street)]
            .filter { catalog.streets[Int($0.otherStreet)].name != street.name }
            .min { PlanarDistance.squaredMetres(best.foot, $0.at) < PlanarDistance.squaredMetres(best.foot, $1.at) }
        return ReverseGeocode(place: Place(kind: .street, name: street.name, coordinate: best.foot),
                              distanceMetres: best.metres,
                              crossStreet: crossing.map { catalog.streets[Int($0.otherStreet)].name })
    }
}
