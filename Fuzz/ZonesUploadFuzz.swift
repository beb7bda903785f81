import Foundation
import GeoKit
import JSONKit
import Zones

/// A zone-set upload (`POST /v1/zone-sets`) as the API takes it: the body
/// through ``ZoneFileLoader`` (``JSONParser``, then every rule of SPEC Z3),
/// and a zone set that loads built into the ``ZoneIndex`` that activating
/// it builds. A refusal is fine; a trap is a finding, and so is an index
/// that answers other than GEOS at a point inside a zone's bounding box.
enum ZonesUploadFuzz {
    /// Top-level cells of the index: the service's default (2^20) would spend
    /// each input building one raster; a coarse grid reaches the same code.
    static let indexCells = 1 << 10

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let loaded: LoadedZones
        do {
            loaded = try ZoneFileLoader.load(data: Data(bytes), options: ZoneFileOptions())
        } catch {
            _ = String(describing: error)  // the API's 400 answer lists every problem
            return
        }
        guard let index = try? ZoneIndex(zoneSet: loaded.zoneSet, targetCells: indexCells) else { return }
        for zone in loaded.zoneSet.zones {
            let box = zone.boundingBox
            let centre = Coordinate(longitude: (box.minX + box.maxX) / 2, latitude: (box.minY + box.maxY) / 2)
            let answer = index.zonePosition(at: centre), reference = index.bruteForceZonePosition(at: centre)
            guard answer == reference else {
                fatalError("the zone index answers \(String(describing: answer)) at \(centre), GEOS \(String(describing: reference))")
            }
        }
    }
}
