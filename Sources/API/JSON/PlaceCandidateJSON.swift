import GeoKit
import Places

/// One place an ambiguous or unsure address may mean, in a 422 problem's
/// `candidates`: what to offer the person typing it.
struct PlaceCandidateJSON: Codable, Equatable, Sendable {
    var label: String
    var kind: String
    var lon: Double
    var lat: Double
    var confidence: Double
    /// What the search changed to find it (a house number the map lacks).
    var note: String?

    init(_ match: PlaceMatch) {
        label = match.place.label
        kind = match.place.kind.rawValue
        lon = match.place.coordinate.longitude
        lat = match.place.coordinate.latitude
        confidence = (match.confidence * 100).rounded() / 100
        note = match.note
    }
}
