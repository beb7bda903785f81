import GeoKit
import JSONKit

/// Places as the API and `mytaxi places --json` write them: camelCase
/// members, positions as `lon` and `lat` to seven decimals, members a place
/// lacks left out.
public enum PlaceJSON {
    /// A place: `label`, `kind`, `lon`, `lat`, and those of `name`,
    /// `houseNumber`, `street`, `city`, `postcode`, `category` it has.
    public static func place(_ place: Place) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "label": .string(place.label), "kind": .string(place.kind.rawValue),
            "lon": .number(JSONWriter.roundedDegrees(place.coordinate.longitude)),
            "lat": .number(JSONWriter.roundedDegrees(place.coordinate.latitude)),
        ]
        let optional: [(String, String?)] = [
            ("name", place.name), ("houseNumber", place.houseNumber), ("street", place.street), ("city", place.city),
            ("postcode", place.postcode), ("category", place.category),
        ]
        for (key, value) in optional { if let value { members[key] = .string(value) } }
        return members
    }

    /// A search's answer: the place's members, `confidence`, and
    /// `distanceMetres` and `note` when it has them.
    public static func match(_ match: PlaceMatch) -> JSONValue {
        var members = place(match.place)
        members["confidence"] = .number((match.confidence * 100).rounded() / 100)
        if let distance = match.distanceMetres { members["distanceMetres"] = .number(distance.rounded()) }
        if let note = match.note { members["note"] = .string(note) }
        return .object(members)
    }

    /// A reverse search's answer: the place's members with `label` naming
    /// the cross street too, `distanceMetres`, and `crossStreet` when there is one.
    public static func reverse(_ answer: ReverseGeocode) -> JSONValue {
        var members = place(answer.place)
        members["label"] = .string(answer.label)
        members["distanceMetres"] = .number(answer.distanceMetres.rounded())
        if let crossStreet = answer.crossStreet { members["crossStreet"] = .string(crossStreet) }
        return .object(members)
    }
}
