/// Parses OSM `maxspeed` values into km/h.
///
/// Accepts numbers (`50`, `50 km/h`), miles per hour (`30 mph`), knots,
/// implicit country limits (`DE:urban`, `RU:rural`, `FR:motorway`,
/// `DE:zone30`) and `walk`. `none`, `signals`, `variable` and anything
/// unrecognised give nil: the road class's default speed then applies.
/// A list (`50;30`) uses its first value.
enum MaxSpeed {
    /// Walking pace, the legal limit where `maxspeed=walk` (German "Schrittgeschwindigkeit").
    static let walkKmh = 7.0

    /// Implicit limits by country and road type, in km/h, keys lowercased.
    static let implicit: [String: Double] = [
        "de:urban": 50, "de:rural": 100, "de:living_street": 7, "de:bicycle_road": 30,
        "at:urban": 50, "at:rural": 100, "at:trunk": 100, "at:motorway": 130,
        "ch:urban": 50, "ch:rural": 80, "ch:trunk": 100, "ch:motorway": 120,
        "fr:urban": 50, "fr:rural": 80, "fr:trunk": 110, "fr:motorway": 130,
        "it:urban": 50, "it:rural": 90, "it:trunk": 110, "it:motorway": 130,
        "be:urban": 50, "be:rural": 70, "be:motorway": 120,
        "nl:urban": 50, "nl:rural": 80, "nl:trunk": 100, "nl:motorway": 100,
        "fi:urban": 50, "fi:rural": 80, "fi:motorway": 120,
        "ru:urban": 60, "ru:rural": 90, "ru:living_street": 20, "ru:motorway": 110,
        "gb:nsl_single": 96.56, "gb:nsl_dual": 112.65, "gb:motorway": 112.65,
    ]

    /// Limits for a road type when the country is not in ``implicit``.
    static let implicitByRoadType: [String: Double] = [
        "urban": 50, "rural": 90, "trunk": 100, "motorway": 120, "living_street": 20,
    ]

    /// The limit in km/h, or nil when there is none or it cannot be read.
    static func kilometresPerHour(_ raw: String) -> Double? {
        let first = raw.split(separator: ";").first.map(String.init) ?? raw
        let value = first.trimmingWhitespace().lowercased()
        if value == "walk" { return walkKmh }
        if let colon = value.firstIndex(of: ":") {
            if let limit = implicit[value] { return limit }
            let roadType = String(value[value.index(after: colon)...])
            if roadType.hasPrefix("zone"), let limit = Double(roadType.dropFirst(4).drop { $0 == ":" }) {
                return limit
            }
            return implicitByRoadType[roadType]
        }
        return measured(value)
    }

    /// A number with an optional unit: km/h by default, mph, knots.
    private static func measured(_ value: String) -> Double? {
        let digits = value.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number > 0 else { return nil }
        let unit = value.dropFirst(digits.count).trimmingWhitespace()
        switch unit {
        case "", "km/h", "kmh", "kph": return number
        case "mph": return number * 1.609344
        case "knots": return number * 1.852
        default: return nil
        }
    }
}
