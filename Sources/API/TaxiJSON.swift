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
    /// `2026-11-23T08:00:00.123Z`, rounded to the millisecond (the archive's
    /// resolution) rather than truncated, so a time reads back as it was sent.
    static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds.floorDiv(1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-\(padded(Int(parts.tm_mday), 2))"
            + "T\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):\(padded(Int(parts.tm_sec), 2))"
            + ".\(padded(Int(milliseconds - milliseconds.floorDiv(1000) * 1000), 3))Z"
    }

    /// Parses `2026-11-23T08:00:00Z`, with or without fractional seconds or an offset.
    static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text, strategy: .iso8601)
    }
}

extension Int64 {
    /// Division rounding toward minus infinity (times before 1970 stay correct).
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
