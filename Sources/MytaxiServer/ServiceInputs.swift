import Fleet
import Foundation
import Logging
import Places
import Routing
import Storage
import Zones

/// What the service is started on, read from its files before anything
/// runs: the zone set in force, the devices, the road router and the
/// walking router. Tests build one from values instead of files.
public struct ServiceInputs: Sendable {
    /// The zone set the service starts on.
    public var zoneSet: ZoneSet
    /// The bytes of the zones file as read at start (nil when the zones
    /// came from an activated version or from values), so that a SIGHUP
    /// reloads the file only when it changed.
    public var zonesFileBytes: Data?
    /// The zone set version activated through the API that ``zoneSet`` is,
    /// nil when it is the zones file.
    public var zoneSetVersion: Int?
    /// Which device belongs to which taxi.
    public var devices: DeviceRegistry
    /// The road router the ETAs, waits and reachability come from.
    public var router: RoadRouter
    /// The walking router of `mode=foot`; nil refuses walking times.
    public var footRouter: RoadRouter?
    /// The addresses, streets and named places of the graph file; nil when
    /// it holds none, and addresses are then refused.
    public var places: PlaceIndex?

    /// Inputs given as values.
    public init(
        zoneSet: ZoneSet, devices: DeviceRegistry, router: RoadRouter, footRouter: RoadRouter? = nil, places: PlaceIndex? = nil,
        zonesFileBytes: Data? = nil, zoneSetVersion: Int? = nil
    ) {
        self.places = places
        self.zoneSet = zoneSet
        self.devices = devices
        self.router = router
        self.footRouter = footRouter
        self.zonesFileBytes = zonesFileBytes
        self.zoneSetVersion = zoneSetVersion
    }

    /// Reads the files `configuration` names: the zone version planners
    /// activated through the API when there is one (else the zones file),
    /// the devices file, the graph with its speed profile, the foot graph.
    /// - Throws: ``ServiceStartError`` naming the file that cannot be used,
    ///   or the zone file's and the devices file's own errors.
    public static func load(_ configuration: ServiceConfiguration, zoneSets: any ZoneSetStore, logger: Logger) async throws -> ServiceInputs {
        let (zoneSet, zoneSetVersion) = try await loadZones(configuration, zoneSets: zoneSets, logger: logger)
        let devices = try DeviceRegistry.load(path: configuration.devicesPath)
        let (router, places) = try loadRouter(configuration, logger: logger)
        let footRouter = try configuration.footGraphPath.map { path in
            do {
                return try RoutingGraph.router(for: GraphFile.read(from: URL(fileURLWithPath: path)))
            } catch {
                throw ServiceStartError(file: path, reason: "\(error)")
            }
        }
        return ServiceInputs(
            zoneSet: zoneSet, devices: devices, router: router, footRouter: footRouter, places: places,
            zonesFileBytes: try? Data(contentsOf: URL(fileURLWithPath: configuration.zonesPath)), zoneSetVersion: zoneSetVersion)
    }

    /// The zones the service starts on: the version planners activated
    /// through the API when there is one (and its number), else the file of `--zones`.
    /// - Throws: ``ServiceStartError`` when the active version no longer
    ///   loads, or the zone file's own error.
    private static func loadZones(
        _ configuration: ServiceConfiguration, zoneSets: any ZoneSetStore, logger: Logger
    ) async throws -> (ZoneSet, version: Int?) {
        guard let active = try await zoneSets.activeVersion(), let geoJSON = try await zoneSets.geoJSON(of: active.version) else {
            return (try ZoneFileLoader.load(path: configuration.zonesPath, options: configuration.zoneFileOptions).zoneSet, nil)
        }
        do {
            let loaded = try ZoneFileLoader.load(data: geoJSON, options: ZoneFileOptions())
            logger.info("zones: version \(active.version) activated by \(active.activation?.by ?? "?") through the API, in place of \(configuration.zonesPath)")
            return (loaded.zoneSet, active.version)
        } catch {
            throw ServiceStartError(
                file: configuration.dataDirectory.map { $0 + "/zones.sqlite" } ?? "the database's zone sets",
                reason: "the active zone set version \(active.version) does not load (\(error)); activate another with POST /v1/zone-sets/{version}/activation")
        }
    }

    /// The road router of `--graph`, with the graph's own speed profile
    /// unless `--speed-profile` gives another, and the graph's places; a
    /// graph without a time zone is warned of (its hours are UTC's), and
    /// one without places (addresses are then refused).
    /// - Throws: ``ServiceStartError`` naming the file that cannot be used.
    private static func loadRouter(_ configuration: ServiceConfiguration, logger: Logger) throws -> (RoadRouter, PlaceIndex?) {
        let graphPath = configuration.graphPath
        let profile: SpeedProfile?
        do {
            profile = try configuration.speedProfilePath.map { try SpeedProfile(parsing: String(contentsOfFile: $0, encoding: .utf8)) }
        } catch {
            throw ServiceStartError(file: configuration.speedProfilePath ?? "", reason: "\(error)")
        }
        do {
            let contents = try GraphFile.read(from: URL(fileURLWithPath: graphPath))
            if RoutingGraph.timeZone(in: contents) == nil {
                logger.warning("\(RoutingGraph.missingTimeZoneWarning(graphPath: graphPath))")
            }
            let places = try PlaceIndex(graphSections: contents.extraSections)
            if let places {
                logger.info("places: \(places.catalog.addressCount) addresses, \(places.catalog.streets.count) streets, \(places.entryCount) names to search")
            } else {
                logger.warning("\(graphPath) holds no places: requests naming an address are refused; rebuild it from the city's OpenStreetMap extract with `mytaxi graph build` to search addresses")
            }
            return (try RoutingGraph.router(for: contents, speedProfile: profile), places)
        } catch {
            throw ServiceStartError(file: graphPath, reason: "\(error)")
        }
    }
}
