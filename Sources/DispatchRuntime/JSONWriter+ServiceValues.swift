import FixRecords
import Foundation
import GeoKit
import JSONKit

/// The service's own values in JSON written by hand: a coordinate as the
/// dispatch log codes it, a time in the API's one format.
extension JSONWriter {
    /// Appends `coordinate` as its `Codable` form.
    /// - Throws: as ``JSONWriter/double(_:)``.
    public mutating func coordinate(_ coordinate: Coordinate) throws {
        raw("{\"longitude\":")
        try double(coordinate.longitude)
        raw(",\"latitude\":")
        try double(coordinate.latitude)
        raw("}")
    }

    /// Appends `date` as a JSON string in the service's one time format,
    /// ``FixTime/iso8601(_:)``'s (`"2026-11-23T08:00:05.250Z"`: UTC, the
    /// milliseconds rounded), written straight into the document.
    @inlinable
    public mutating func fixTime(_ date: Date) {
        write(upTo: FixTime.iso8601Length + 2) { out in
            out[0] = UInt8(ascii: "\"")
            FixTime.writeISO8601(date, to: out + 1)
            out[FixTime.iso8601Length + 1] = UInt8(ascii: "\"")
            return FixTime.iso8601Length + 2
        }
    }
}
