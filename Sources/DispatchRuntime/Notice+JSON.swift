import Foundation
import JSONKit

extension Notice {
    /// The notice as JSON, keys sorted: byte for byte what `JSONEncoder`
    /// with `.sortedKeys` writes, without its cost. Every request stores one
    /// or two notices in the log's transaction on the writer thread, where
    /// `JSONEncoder` cost more than the insert; the push sockets send the
    /// same bytes.
    /// - Throws: `EncodingError.invalidValue` for an ETA or a point that is not finite.
    public func json() throws -> Data {
        var writer = JSONWriter(capacity: 256)
        var separator = false
        func key(_ name: StaticString) {
            writer.raw(separator ? "," : "{")
            separator = true
            writer.raw(name)
        }
        func string(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            key(name)
            writer.string(value)
        }
        func time(_ name: StaticString, _ value: Date?) {
            guard let value else { return }
            key(name)
            writer.fixTime(value)
        }
        func point(_ name: StaticString, _ value: NoticePoint?) throws {
            guard let value else { return }
            key(name)
            writer.raw("{\"lat\":")
            try writer.double(value.lat)
            writer.raw(",\"lon\":")
            try writer.double(value.lon)
            writer.raw("}")
        }
        time("\"at\":", at)
        time("\"confirmBy\":", confirmBy)
        try point("\"destination\":", destination)
        if let etaS {
            key("\"etaS\":")
            try writer.double(etaS)
        }
        time("\"expiresAt\":", expiresAt)
        string("\"fromZoneId\":", fromZoneId)
        if let id {
            key("\"id\":")
            writer.integer(id)
        }
        string("\"kind\":", kind)
        string("\"passengerId\":", passengerId)
        try point("\"pickup\":", pickup)
        time("\"pickupAt\":", pickupAt)
        if let queuePosition {
            key("\"queuePosition\":")
            writer.integer(Int64(queuePosition))
        }
        string("\"reason\":", reason)
        string("\"reservationId\":", reservationId)
        string("\"rideId\":", rideId)
        string("\"state\":", state)
        if let stops {
            key("\"stops\":")
            writer.raw("[")
            for (index, stop) in stops.enumerated() {
                writer.raw(index == 0 ? "{\"point\":{\"lat\":" : ",{\"point\":{\"lat\":")
                try writer.double(stop.point.lat)
                writer.raw(",\"lon\":")
                try writer.double(stop.point.lon)
                writer.raw("},\"rideId\":")
                writer.string(stop.rideId)
                writer.raw(",\"stop\":")
                writer.string(stop.stop)
                writer.raw("}")
            }
            writer.raw("]")
        }
        string("\"taxiId\":", taxiId)
        string("\"zoneId\":", zoneId)
        writer.raw("}")
        return Data(writer.finish())
    }
}
