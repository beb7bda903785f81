import GeoKit
import HTTPTypes
import Places

/// Turns the address of a ride request or a reservation into the point a
/// taxi drives to: taken only when the search is sure, so that a taxi is
/// never sent to the wrong one of two places; else a 422 listing the
/// candidates to choose from.
struct AddressResolver: Sendable {
    /// The least confidence an address is taken at: every word found,
    /// allowing about one typo or completion.
    static let leastConfidence = 0.75
    /// Two equally good matches farther apart than this make an address ambiguous.
    static let sameSpotMetres = 150.0
    /// How many candidates a refusal lists.
    static let candidateCount = 5

    /// Addresses cannot be resolved: the graph file holds no places.
    static let noPlaces = Problem(
        status: .unprocessableContent,
        detail: "this service cannot look addresses up: its graph file holds no places; give the point as {\"lon\": ..., \"lat\": ...}, "
            + "or rebuild the graph from the city's OpenStreetMap extract with `mytaxi graph build`")

    /// The index, nil when the graph file holds no places.
    let places: PlaceIndex?

    /// The point of `location` given as `field`, the address understood with it.
    /// - Parameter near: ranks equal matches by nearness (the pickup, for a destination).
    /// - Throws: ``Problem`` 400 when the location is neither a point nor an
    ///   address, or both; 422 when the address names no place, several, or
    ///   none surely (with `candidates`), or when addresses cannot be resolved.
    func resolve(_ location: LocationJSON, field: String, near: Coordinate? = nil) throws -> ResolvedLocation {
        switch (location.lon, location.lat, location.address) {
        case (let lon?, let lat?, nil):
            return ResolvedLocation(coordinate: try PointJSON(Coordinate(longitude: lon, latitude: lat)).coordinate(field: field))
        case (nil, nil, let address?):
            return try resolve(address: address, field: field, near: near)
        default:
            throw Problem.badRequest(
                "'\(field)' must be a point {\"lon\": ..., \"lat\": ...} or an address {\"address\": \"350 5th Ave\"}, not both or neither")
        }
    }

    private func resolve(address: String, field: String, near: Coordinate?) throws -> ResolvedLocation {
        guard address.unicodeScalars.count <= PlacesController.longestQuery else {
            throw Problem.badRequest("'\(field).address' must be at most \(PlacesController.longestQuery) characters, e.g. 350 5th Ave")
        }
        guard let places else { throw Self.noPlaces }
        let finished = address.hasSuffix(" ") ? address : address + " "
        let matches = places.search(finished, near: near, limit: Self.candidateCount)
        guard let best = matches.first else {
            throw refusal("no place in the city matches '\(address)' (\(field)); check the spelling, or give the point", matches)
        }
        guard best.confidence >= Self.leastConfidence, best.note == nil else {
            let why = best.note.map { "; \($0)" } ?? ""
            throw refusal("'\(address)' (\(field)) is not clearly any place\(why): choose one of the candidates", matches)
        }
        let rivals = matches.dropFirst().filter {
            abs($0.confidence - best.confidence) < 0.01
                && $0.place.coordinate.haversineDistance(to: best.place.coordinate) > Self.sameSpotMetres
        }
        guard rivals.isEmpty else {
            throw refusal("'\(address)' (\(field)) names \(rivals.count + 1) places: choose one of the candidates, "
                          + "or add the street or house number", matches)
        }
        return ResolvedLocation(coordinate: best.place.coordinate, understood: best.place.label)
    }

    private func refusal(_ detail: String, _ matches: [PlaceMatch]) -> Problem {
        var problem = Problem(status: .unprocessableContent, detail: detail)
        problem.candidates = matches.map(PlaceCandidateJSON.init)
        return problem
    }
}
