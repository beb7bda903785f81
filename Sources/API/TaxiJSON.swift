import Fleet
import Foundation
import GeoKit
import Ingest
import Zones

/// A taxi's position as the API writes it (contract of `GET /v1/taxis/{id}`
/// and `/v1/taxis/{id}/fixes`): `taxiId, lon, lat, time, speedKmh, heading,
/// zoneId, stale`.
struct TaxiJSON: Codable, Equatable, Sendable {
    var taxiId: String
    var lon: Double
    var lat: Double
    /// ISO 8601 UTC with milliseconds.
    var time: String
    var speedKmh: Double
    var heading: Double
    /// Null outside every zone.
    var zoneId: String?
    /// Live entries only: silent longer than the stale limit.
    var stale: Bool?

    init(_ entry: FleetIndex.Entry) {
        let position = entry.position
        taxiId = position.taxiId.text
        lon = position.coordinate.longitude
        lat = position.coordinate.latitude
        time = ISO8601.string(from: position.time)
        speedKmh = position.speedKmh
        heading = position.heading
        zoneId = position.zoneId?.text
        stale = entry.stale
    }

    init(_ fix: AcceptedFix) {
        taxiId = fix.taxiId.text
        lon = fix.coordinate.longitude
        lat = fix.coordinate.latitude
        time = ISO8601.string(from: fix.time)
        speedKmh = fix.speedKmh
        heading = fix.heading
        zoneId = fix.zoneId?.text
        stale = nil
    }
}

/// ISO 8601 times as the API reads and writes them (UTC, `Z`, milliseconds).
enum ISO8601 {
    static func string(from date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Parses `2026-11-23T08:00:00Z`, with or without fractional seconds or an offset.
    static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: .iso8601)
    }
}
