import GeoKit

/// One answer to a place search.
public struct PlaceMatch: Sendable, Equatable {
    /// The place found; a street stands at its point nearest the caller.
    public var place: Place
    /// The place's ``Place/label``, made once: the search compares answers
    /// by it and every answer writes it.
    public let label: String
    /// How well the text matched, 0 to 1 (1: every word typed, exactly).
    public var confidence: Double
    /// Metres from the search's `near` point, when it had one.
    public var distanceMetres: Double?
    /// What the search changed to answer, when it did: a house number the
    /// map lacks answered with the street.
    public var note: String?

    /// Creates an answer; see the properties.
    public init(place: Place, confidence: Double, distanceMetres: Double? = nil, note: String? = nil) {
        self.place = place
        label = place.label
        self.confidence = confidence
        self.distanceMetres = distanceMetres
        self.note = note
    }
}
