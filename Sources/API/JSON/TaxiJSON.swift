import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Ingest
import JSONKit
import Zones

/// A taxi's position as the API writes it (contract of `GET /v1/taxis/{id}`
/// and `/v1/taxis/{id}/fixes`): `taxiId, lon, lat, time, speedKmh, heading,
/// zoneId, stale`, the coordinates rounded to 7 decimals (about a
/// centimetre, RFC 7946 §11.2: a fix is not finer), as the fleet's
/// hand-written documents give them.
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

    /// A live entry of the fleet index, with its staleness.
    init(_ entry: FleetIndex.Entry) {
        self.init(entry.position, stale: entry.stale)
    }

    /// An archived fix (no staleness: it is history).
    init(_ fix: AcceptedFix) {
        self.init(fix.position, stale: nil)
    }

    private init(_ position: TaxiPosition, stale: Bool?) {
        taxiId = position.taxiId.text
        lon = JSONWriter.roundedDegrees(position.coordinate.longitude)
        lat = JSONWriter.roundedDegrees(position.coordinate.latitude)
        time = FixTime.iso8601(position.time)
        speedKmh = position.speedKmh
        heading = position.heading
        zoneId = position.zoneId?.text
        self.stale = stale
    }
}
