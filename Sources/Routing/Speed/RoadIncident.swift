import Foundation

/// A road slowed for a while (an accident, roadworks, a parade), as the
/// simulators impose it on their "true" speeds: every edge of the named
/// road runs at ``factor`` times its speed from ``start`` to ``end``.
public struct RoadIncident: Sendable, Equatable {
    /// The road's name as given.
    public var roadName: String
    /// Its edges in the graph.
    public var edges: [Int]
    /// When it starts.
    public var start: Date
    /// When it ends.
    public var end: Date
    /// The speed multiplier, in (0, 1] for a slowdown (0.2: a fifth of the usual speed).
    public var factor: Double

    /// An incident on `edges` of `roadName`.
    public init(roadName: String, edges: [Int], start: Date, end: Date, factor: Double) {
        self.roadName = roadName
        self.edges = edges
        self.start = start
        self.end = end
        self.factor = factor
    }

    /// Whether it is under way at `date`.
    public func isActive(at date: Date) -> Bool { date >= start && date < end }

    /// Reads `ROAD NAME,FROM,MINUTES,FACTOR`: FROM is minutes after
    /// `simulationStart`; the road is looked up in `names`.
    /// - Throws: ``RoadIncidentError`` naming the field that is wrong.
    public init(parsing text: String, names: EdgeNames?, simulationStart: Date) throws(RoadIncidentError) {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 4 else { throw .wrongFieldCount(text: text, count: fields.count) }
        guard let names else { throw .graphWithoutNames }
        let edges = names.edges(named: fields[0])
        guard !edges.isEmpty else { throw .unknownRoad(fields[0], suggestions: names.suggestions(for: fields[0])) }
        guard let from = Double(fields[1]), from >= 0, from.isFinite else {
            throw .invalidField(field: "FROM", value: fields[1], reason: "is not a number of minutes after the start, 0 or more")
        }
        guard let minutes = Double(fields[2]), minutes > 0, minutes.isFinite else {
            throw .invalidField(field: "MINUTES", value: fields[2], reason: "is not a duration in minutes above 0")
        }
        guard let factor = Double(fields[3]), factor > 0, factor <= 2 else {
            throw .invalidField(field: "FACTOR", value: fields[3], reason: "is not a speed multiplier in (0, 2] (0.2 = a fifth of the speed)")
        }
        let start = simulationStart.addingTimeInterval(from * 60)
        self.init(roadName: fields[0], edges: edges, start: start, end: start.addingTimeInterval(minutes * 60), factor: factor)
    }
}

/// Why an incident cannot be read.
public enum RoadIncidentError: Error, Equatable, CustomStringConvertible {
    case wrongFieldCount(text: String, count: Int)
    case graphWithoutNames
    case unknownRoad(String, suggestions: [String])
    case invalidField(field: String, value: String, reason: String)

    public var description: String {
        switch self {
        case let .wrongFieldCount(text, count):
            "'\(text)': expected 4 fields ROAD NAME,FROM,MINUTES,FACTOR, found \(count)"
        case .graphWithoutNames:
            "the graph has no road names: build it again with `mytaxi graph build` to name roads in incidents"
        case let .unknownRoad(name, suggestions):
            "no road of the graph is named '\(name)'" + (suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)")
        case let .invalidField(field, value, reason):
            "field \(field): '\(value)' \(reason)"
        }
    }
}

/// Speeds with incidents on top: the edges of an incident under way take
/// their time ÷ its factor. The simulators' "true" speeds.
public struct IncidentSpeeds: EdgeSpeedSource {
    /// The most incidents one source holds: each under way is a bit of its durations key.
    public static let maxIncidents = 32
    /// The speeds without incidents.
    public let base: any EdgeSpeedSource
    /// The incidents.
    public let incidents: [RoadIncident]

    /// `base` with `incidents` on top.
    /// - Precondition: at most ``maxIncidents`` incidents.
    public init(base: any EdgeSpeedSource, incidents: [RoadIncident]) {
        precondition(incidents.count <= Self.maxIncidents, "at most \(Self.maxIncidents) incidents")
        self.base = base
        self.incidents = incidents
    }

    public func edgeDurations(hourOfWeek: Int) -> [UInt32] { base.edgeDurations(hourOfWeek: hourOfWeek) }
    public func durationsKey(hourOfWeek: Int) -> Int { base.durationsKey(hourOfWeek: hourOfWeek) }

    private func activeMask(_ date: Date) -> Int {
        incidents.indices.reduce(0) { mask, index in incidents[index].isActive(at: date) ? mask | (1 << index) : mask }
    }

    public func durationsKey(departing date: Date, timeZone: TimeZone) -> Int {
        base.durationsKey(departing: date, timeZone: timeZone) + activeMask(date) << 20
    }

    public func edgeDurations(departing date: Date, timeZone: TimeZone) -> [UInt32] {
        var durations = base.edgeDurations(departing: date, timeZone: timeZone)
        for incident in incidents where incident.isActive(at: date) {
            for edge in incident.edges where durations[edge] != unreachableMs {
                durations[edge] = UInt32(min((Double(durations[edge]) / incident.factor).rounded(), Double(unreachableMs - 1)))
            }
        }
        return durations
    }

    public func provenance(departing date: Date, timeZone: TimeZone) -> SpeedProvenance {
        base.provenance(departing: date, timeZone: timeZone)
    }
}
