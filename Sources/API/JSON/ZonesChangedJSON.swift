import FixRecords
import Foundation

/// The board's `zones_changed` message: a new zone set was put in force
/// (an activation through the API, or the zones file on `SIGHUP`), so a
/// client drawing zones reads `GET /v1/zones` again.
struct ZonesChangedJSON: Encodable, Sendable {
    /// Always `zones_changed`.
    var kind = "zones_changed"
    /// When the set was put in force, ISO 8601 UTC.
    var at: String
    /// The zone set version now active; nil when the zones file was reloaded.
    var version: Int?
    /// Zones in the set now in force.
    var zoneCount: Int

    /// The message for a switch at `at` to `version` (nil: the zones file) of `zoneCount` zones.
    init(at: Date, version: Int?, zoneCount: Int) {
        self.at = FixTime.iso8601(at)
        self.version = version
        self.zoneCount = zoneCount
    }

    /// The message as the JSON text a socket is sent.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
