import GeoKit
import JSONKit

/// Places as the API and `mytaxi places --json` write them: camelCase
/// members, positions as `lon` and `lat` to seven decimals, members a place
/// lacks left out. Written straight to bytes: an address field asks at
/// each keystroke, and a tree of values per answer cost more than the search.
public enum PlaceJSON {
    /// A search's answers: `{"places": [match, ...]}`.
    public static func matches(_ matches: [PlaceMatch]) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 * max(matches.count, 1))
        writer.raw("{\"places\":[")
        for (position, match) in matches.enumerated() {
            if position > 0 { writer.raw(",") }
            write(match, into: &writer)
        }
        writer.raw("]}")
        return writer.finish()
    }

    /// One answer of a search: the place's members (``write(_:label:into:)``),
    /// `confidence`, and `distanceMetres` and `note` when it has them.
    public static func match(_ match: PlaceMatch) -> [UInt8] {
        var writer = JSONWriter()
        write(match, into: &writer)
        return writer.finish()
    }

    /// A reverse search's answer: the place's members with `label` naming
    /// the cross street too, `distanceMetres`, and `crossStreet` when there is one.
    public static func reverse(_ answer: ReverseGeocode) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{")
        writeMembers(of: answer.place, label: answer.label, into: &writer)
        writer.raw(",\"distanceMetres\":")
        writer.integer(Int64(answer.distanceMetres.rounded()))
        if let crossStreet = answer.crossStreet {
            writer.raw(",\"crossStreet\":")
            writer.string(crossStreet)
        }
        writer.raw("}")
        return writer.finish()
    }

    private static func write(_ match: PlaceMatch, into writer: inout JSONWriter) {
        writer.raw("{")
        writeMembers(of: match.place, label: match.label, into: &writer)
        writer.raw(",\"confidence\":")
        try? writer.double((match.confidence * 100).rounded() / 100)
        if let distance = match.distanceMetres {
            writer.raw(",\"distanceMetres\":")
            writer.integer(Int64(distance.rounded()))
        }
        if let note = match.note {
            writer.raw(",\"note\":")
            writer.string(note)
        }
        writer.raw("}")
    }

    /// `label`, `kind`, `lon`, `lat`, and those of `name`, `houseNumber`,
    /// `street`, `city`, `postcode`, `category` the place has.
    private static func writeMembers(of place: Place, label: String, into writer: inout JSONWriter) {
        writer.raw("\"label\":")
        writer.string(label)
        writer.raw(",\"kind\":")
        writer.string(place.kind.rawValue)
        writer.raw(",\"lon\":")
        try? writer.degrees(place.coordinate.longitude)
        writer.raw(",\"lat\":")
        try? writer.degrees(place.coordinate.latitude)
        writer.member(",\"name\":", place.name)
        writer.member(",\"houseNumber\":", place.houseNumber)
        writer.member(",\"street\":", place.street)
        writer.member(",\"city\":", place.city)
        writer.member(",\"postcode\":", place.postcode)
        writer.member(",\"category\":", place.category)
    }
}

extension JSONWriter {
    /// Appends `key` and `value` when there is a value: a member a place may lack.
    fileprivate mutating func member(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        raw(key)
        string(value)
    }
}
