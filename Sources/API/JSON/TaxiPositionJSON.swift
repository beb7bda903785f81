/// `taxi_position`, pushed to a passenger at each fix of the taxi on its
/// way to the pickup or waiting there: where it is, where it heads, and the
/// ETA last told, so that the app moves the taxi's marker between the
/// stored notifications (`taxi_assigned`, `eta_changed`, `taxi_arrived`).
struct TaxiPositionJSON: Codable, Equatable, Sendable {
    var kind = "taxi_position"
    var rideId: String
    var taxiId: String
    var lon: Double
    var lat: Double
    /// Degrees clockwise from north.
    var heading: Double
    var speedKmh: Double
    /// The fix's time, ISO 8601.
    var time: String
    /// The ETA to the pickup last told, seconds; absent once arrived.
    var etaS: Double?

    /// The message for `ride`, whose taxi's latest fix is `taxi`.
    init(ride: RideJSON, taxi: TaxiJSON) {
        rideId = ride.rideId
        taxiId = taxi.taxiId
        lon = taxi.lon
        lat = taxi.lat
        heading = taxi.heading
        speedKmh = taxi.speedKmh
        time = taxi.time
        etaS = ride.etaS
    }
}
