import GeoKit

/// Where a request says to go: a point `{"lon", "lat"}`, or an address
/// `{"address": "350 5th Ave"}` the service resolves (``AddressResolver``).
struct LocationJSON: Codable, Equatable, Sendable {
    var lon: Double?
    var lat: Double?
    /// A typed address or place name.
    var address: String?
}

/// A location resolved: its point, and the address understood when it named one.
struct ResolvedLocation: Sendable, Equatable {
    var coordinate: Coordinate
    /// The place the address was taken as (`350 5th Avenue, New York 10118`); nil for a point.
    var understood: String?
}
