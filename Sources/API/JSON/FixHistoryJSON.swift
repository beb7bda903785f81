import FixRecords
import Foundation
import GeoKit
import Storage

/// A taxi's track as the API writes it (`GET /v1/taxis/{id}/track`): a
/// GeoJSON Feature (RFC 7946) whose geometry is the LineString through its
/// positions, null when it has fewer than two (no line to draw), with
/// `taxiId`, `from`, `to`, `fixes` and `lengthMetres` as properties.
struct TrackJSON: Encodable {
    struct LineString: Encodable {
        let type = "LineString"
        /// `[lon, lat]` pairs, oldest first.
        let coordinates: [[Double]]
    }

    struct Properties: Encodable {
        let taxiId: String
        let from: String
        let to: String
        let fixes: Int
        let lengthMetres: Double
    }

    let type = "Feature"
    let geometry: LineString?
    let properties: Properties

    /// The Feature of `track`, `taxi`'s in `window`.
    init(_ track: FixTrack, taxi: TaxiID, window: ClosedRange<Date>) {
        geometry = track.positions.count < 2
            ? nil : LineString(coordinates: track.positions.map { [$0.longitude, $0.latitude] })
        properties = Properties(
            taxiId: taxi.text, from: FixTime.iso8601(window.lowerBound), to: FixTime.iso8601(window.upperBound),
            fixes: track.positions.count, lengthMetres: (track.lengthMetres * 10).rounded() / 10)
    }

    private enum CodingKeys: String, CodingKey {
        case type, geometry, properties
    }

    /// `geometry` is written as null when there is none, as GeoJSON requires the member.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(geometry, forKey: .geometry)
        try container.encode(properties, forKey: .properties)
    }
}

/// A taxi's daily distances as the API writes them (`GET /v1/taxis/{id}/distance`):
/// one entry per UTC day with fixes in the window, and the total.
struct DistanceJSON: Encodable {
    struct Day: Encodable {
        /// The UTC day, `YYYY-MM-DD`.
        let day: String
        let fixes: Int
        let metres: Double
    }

    let taxiId: String
    let from: String
    let to: String
    let days: [Day]
    let totalMetres: Double

    /// The answer for `taxi` in `window`; metres to the decimetre.
    init(_ distances: [DailyDistance], taxi: TaxiID, window: ClosedRange<Date>) {
        taxiId = taxi.text
        from = FixTime.iso8601(window.lowerBound)
        to = FixTime.iso8601(window.upperBound)
        days = distances.map { Day(day: String(FixTime.iso8601($0.day).prefix(10)), fixes: $0.fixes, metres: Self.decimetres($0.metres)) }
        totalMetres = Self.decimetres(distances.reduce(0) { $0 + $1.metres })
    }

    private static func decimetres(_ metres: Double) -> Double {
        (metres * 10).rounded() / 10
    }
}
