import DispatchRuntime
import FixRecords
import Fleet
import GeoKit
import JSONKit
import Zones

/// The documents of `GET /v1/zones/{zoneId}/taxis` and `GET /v1/fleet`,
/// written by hand with ``JSONWriter``: a dispatcher's map loads the whole
/// fleet at once, and `JSONEncoder` (a tree of boxed values per taxi) took
/// most of the time of those reads. Each taxi is ``TaxiJSON``'s document
/// exactly as `JSONEncoder` writes it with sorted keys (`heading, lat, lon,
/// speedKmh, stale, taxiId, time, zoneId`, a missing zone left out, the
/// coordinates at ``JSONWriter/degrees(_:)``'s 7 decimals), so that every
/// endpoint gives a taxi's position the same way.
public enum FleetJSON {
    /// Bytes one taxi's document takes, about: room reserved up front.
    private static let bytesPerTaxi = 160

    /// `{"taxis":[...],"zoneId":"161"}`: the live taxis of a zone.
    /// - Throws: `EncodingError.invalidValue` for a coordinate, speed or
    ///   heading that is not finite, as `JSONEncoder` would.
    public static func zoneTaxis(zoneId: String, entries: [FleetIndex.Entry]) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 32 + bytesPerTaxi * entries.count)
        writer.raw("{\"taxis\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { writer.raw(",") }
            try writer.taxi(entry)
        }
        writer.raw("],\"zoneId\":")
        writer.string(zoneId)
        writer.raw("}")
        return writer.finish()
    }

    /// `[{"position":{...},"state":"available"}, ...]`: every live taxi with
    /// its driver's state (`state(taxi)`), in the order of `entries`.
    /// - Throws: as ``zoneTaxis(zoneId:entries:)``.
    public static func fleet(_ entries: [FleetIndex.Entry], state: (TaxiID) -> String) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 2 + (bytesPerTaxi + 32) * entries.count)
        writer.raw("[")
        for (index, entry) in entries.enumerated() {
            writer.raw(index > 0 ? ",{\"position\":" : "{\"position\":")
            try writer.taxi(entry)
            writer.raw(",\"state\":")
            writer.string(state(entry.position.taxiId))
            writer.raw("}")
        }
        writer.raw("]")
        return writer.finish()
    }
}

extension JSONWriter {
    /// Appends a live fleet entry as ``TaxiJSON``'s document with sorted keys.
    mutating func taxi(_ entry: FleetIndex.Entry) throws {
        let position = entry.position
        raw("{\"heading\":")
        try double(position.heading)
        raw(",\"lat\":")
        try degrees(position.coordinate.latitude)
        raw(",\"lon\":")
        try degrees(position.coordinate.longitude)
        raw(",\"speedKmh\":")
        try double(position.speedKmh)
        raw(entry.stale ? ",\"stale\":true,\"taxiId\":" : ",\"stale\":false,\"taxiId\":")
        string(position.taxiId.text)
        raw(",\"time\":")
        fixTime(position.time)
        if let zone = position.zoneId {
            raw(",\"zoneId\":")
            string(zone.text)
        }
        raw("}")
    }
}
