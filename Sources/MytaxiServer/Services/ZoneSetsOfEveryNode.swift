import API
import Logging
import Storage
import Zones

/// On a node of several (`serve --node-id`): every two seconds, whether
/// another node put another zone set version in force (a planner's
/// activation through its API, which the shared store records), and if so
/// the same version put in force here, so that a zone set activated on one
/// node is in force on all within seconds. The node that decides dispatch
/// moves the engine's taxis, requests and bookings to the new zones then.
struct ZoneSetsOfEveryNode: PeriodicWork {
    let store: any ZoneSetStore
    let zoneSwitch: ZoneSwitch
    let logger: Logger
    let interval: Duration = .seconds(2)
    /// A version that did not load here, logged once and not tried again.
    private var refused: Int?

    init(store: any ZoneSetStore, zoneSwitch: ZoneSwitch, logger: Logger) {
        self.store = store
        self.zoneSwitch = zoneSwitch
        self.logger = logger
    }

    mutating func round() async {
        guard let active = try? await store.activeVersion(), active.version != refused,
            active.version != (await zoneSwitch.versionInForce),
            let geoJSON = try? await store.geoJSON(of: active.version)
        else { return }
        do {
            let index = try ZoneIndex(zoneSet: try ZoneFileLoader.load(data: geoJSON, options: ZoneFileOptions()).zoneSet)
            await zoneSwitch.switchTo(
                index, version: active.version, from: "version \(active.version) activated by \(active.activation?.by ?? "?") on another node")
        } catch {
            refused = active.version
            logger.error("zones: version \(active.version), activated on another node, does not load here; the zone set in force stays: \(error)")
        }
    }
}
