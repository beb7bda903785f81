import Foundation
import GeoKit
import Hummingbird
import Places
import Storage

/// `/v1/places`: the city's addresses, streets and named places, for
/// every app's address field (suggestions as one types) and for naming
/// the point a passenger tapped on the map.
struct PlacesController: Sendable {
    /// Every signed-in role may search places.
    static let readers: Set<Role> = Set(Role.allCases)

    /// The index, nil when the graph file holds no places.
    let places: PlaceIndex?

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: search)
        group.get("reverse", use: reverse)
    }

    /// `GET /v1/places?q=TEXT[&near=LON,LAT][&limit=N]`: the places the text
    /// names, best first (`PlaceJSON` members, `confidence`, `distanceMetres`
    /// from `near`, a `note` when the search changed what was asked), as
    /// `{"places": [...]}`; the last word is completed as it is typed.
    @Sendable func search(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let places = try index()
        let parameters = request.uri.queryParameters
        guard let query = parameters.get("q") else {
            throw Problem.badRequest("query parameter 'q' is required: the text to look for, e.g. q=350 5th Ave")
        }
        guard query.unicodeScalars.count <= Self.longestQuery else {
            throw Problem.badRequest("query parameter 'q' is \(query.unicodeScalars.count) characters long; at most \(Self.longestQuery)")
        }
        let near = try parameters.get("near").map { _ in try request.queryPoint("near") }
        let limit = try request.queryCount("limit", in: 1...PlaceIndex.maximumLimit, default: 10)
        return JSONResponse.ok(json: PlaceJSON.matches(places.search(query, near: near, limit: limit)))
    }

    /// `GET /v1/places/reverse?lon=&lat=`: the point's nearest address, or
    /// its street and cross street; 404 when nothing named is near.
    @Sendable func reverse(_ request: Request, context: APIRequestContext) throws -> Response {
        _ = try context.requireCaller(in: Self.readers)
        let places = try index()
        let point = try request.queryPoint()
        guard let answer = places.reverse(point) else {
            throw Problem.notFound("nothing named within \(Int(ReverseGeocode.streetReachMetres)) m of \(point)")
        }
        return JSONResponse.ok(json: PlaceJSON.reverse(answer))
    }

    /// The longest query read, in characters (code points): far more than any address.
    static let longestQuery = 200

    private func index() throws -> PlaceIndex {
        guard let places else { throw AddressResolver.noPlaces }
        return places
    }
}
