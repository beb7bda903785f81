import COsmium
import GeoKit
import Zones

extension TaxiRank {
    /// The taxi ranks of an OpenStreetMap file (`.osm.pbf`, or `.osm` XML):
    /// its nodes tagged `amenity=taxi`, and its ways so tagged (a rank drawn
    /// as an area) at the mean of their nodes. The id is `n` or `w` and the
    /// OSM id (`n4201667790`), stable across extracts; the name is the
    /// `name` tag, else `ref`, else `addr:street`, else the id, as for
    /// ranks read from GeoJSON.
    /// - Throws: ``ZoneToolError/unreadable(path:reason:)`` when the file
    ///   cannot be read as OSM data, ``ZoneToolError/invalidData(path:problems:)``
    ///   when it has no taxi rank.
    public static func read(osm path: String) throws(ZoneToolError) -> [TaxiRank] {
        var message: UnsafeMutablePointer<CChar>?
        guard let places = cosm_read_places(path, "amenity", "taxi", &message) else {
            let reason = message.map { String(cString: $0) } ?? "unknown error"
            cosm_free_error(message)
            throw .unreadable(path: path, reason: reason)
        }
        defer { cosm_free_places(places) }
        let ranks = UnsafeBufferPointer(start: places.pointee.places, count: places.pointee.count).map { place in
            let id = "\(Character(UnicodeScalar(UInt8(bitPattern: place.type))))\(place.id)"
            let name = [place.name, place.ref, place.street].lazy.compactMap { $0.map { String(cString: $0) } }.first ?? id
            return TaxiRank(id: id, name: name, position: Coordinate(longitude: place.longitude, latitude: place.latitude))
        }
        guard !ranks.isEmpty else {
            throw .invalidData(path: path, problems: [.init(subject: "file", message: "no taxi rank (amenity=taxi node or way)")])
        }
        return ranks
    }
}
