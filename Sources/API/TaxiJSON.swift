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
        time = FixTime.iso8601(position.time)
        speedKmh = position.speedKmh
        heading = position.heading
        zoneId = position.zoneId?.text
        stale = entry.stale
    }

    init(_ fix: AcceptedFix) {
        taxiId = fix.taxiId.text
        lon = fix.coordinate.longitude
        lat = fix.coordinate.latitude
        time = FixTime.iso8601(fix.time)
        speedKmh = fix.speedKmh
        heading = fix.heading
        zoneId = fix.zoneId?.text
        stale = nil
    }
}
