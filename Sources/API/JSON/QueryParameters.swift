import FixRecords
import Foundation
import GeoKit
import Hummingbird
import Ingest

/// Reading points and times from query strings, with errors that name the
/// parameter and show the form it takes (SPEC A3).
extension Request {
    /// The point of `lon` and `lat` parameters (`?lon=-73.98&lat=40.75`).
    /// - Throws: ``Problem`` 400 naming the parameter.
    func queryPoint() throws -> Coordinate {
        let query = uri.queryParameters
        guard let lon = query.get("lon").flatMap(Double.init), let lat = query.get("lat").flatMap(Double.init) else {
            throw Problem.badRequest("query parameters 'lon' and 'lat' must be numbers, e.g. ?lon=-73.9855&lat=40.7580")
        }
        return try PointJSON(Coordinate(longitude: lon, latitude: lat)).coordinate(field: "lon/lat")
    }

    /// The point of a `LON,LAT` parameter (`?from=-73.98,40.75`).
    /// - Throws: ``Problem`` 400 naming the parameter.
    func queryPoint(_ name: String) throws -> Coordinate {
        let parts = uri.queryParameters.get(name)?.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard let parts, parts.count == 2, let lon = parts[0], let lat = parts[1] else {
            throw Problem.badRequest("query parameter '\(name)' must be LON,LAT, e.g. \(name)=-73.9855,40.7580")
        }
        return try PointJSON(Coordinate(longitude: lon, latitude: lat)).coordinate(field: name)
    }

    /// The ISO 8601 time of parameter `name`, or `fallback` when it is absent.
    /// - Throws: ``Problem`` 400 when it is present but not a time.
    func queryTime(_ name: String, default fallback: Date) throws -> Date {
        guard let text = uri.queryParameters.get(name) else { return fallback }
        guard let date = FixTime.date(iso8601: text) else {
            throw Problem.badRequest("query parameter '\(name)' must be an ISO 8601 time, e.g. 2026-11-23T08:30:00-05:00")
        }
        return date
    }

    /// The whole number of parameter `name` in `range`, or `fallback` when absent.
    /// - Throws: ``Problem`` 400 when it is present but not such a number.
    func queryCount(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let text = uri.queryParameters.get(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.badRequest("query parameter '\(name)' must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
