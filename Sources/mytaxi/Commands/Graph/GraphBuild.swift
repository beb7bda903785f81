import ArgumentParser
import Foundation
import Places
import Routing
import ServeConfig
import Zones

extension Mytaxi.Graph {
    /// `mytaxi graph build (MAP | --synthetic-nodes N [--seed S]) -o CITY.graph [--profile car|foot] [--time-zone NAME]
    /// [--speed-profile FILE | --free-flow] [--zones ZONES.geojson]`.
    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build a road graph file from an OpenStreetMap extract (or a synthetic city).",
            discussion: """
                Instead of a map, --synthetic-nodes N draws an OpenStreetMap-like city of about N \
                nodes (an irregular street grid with primary, secondary and tertiary roads, one-way \
                residential streets, missing blocks and curved shape points; --seed picks which one) \
                and builds it through the same pipeline as an extract, for measuring the router at \
                city scale.
                The graph always carries a speed profile: the built-in dense-city one, the file of \
                --speed-profile (the one `graph calibrate` fitted), or free flow with --free-flow; \
                `eta`, `route` and `serve` use it unless told otherwise. Without --time-zone the \
                profile's hours are read in UTC, and every command routing on the graph warns of it. \
                With --zones, each edge learns the zone its midpoint lies in, so that the speed \
                profile's zone factors (`zone:<id>` lines, docs/speed-profile.md, fitted by `graph \
                calibrate`) apply to it; without, zone factors are ignored. The file also carries the \
                map's addresses, streets and named places, for `mytaxi places` and the service's \
                address search (/v1/places). Progress goes to standard \
                error; the summary (nodes, edges, dropped nodes, turn \
                restrictions, build time, file size) to standard output, one "name: value" per line. \
                Exit status: 0 on success, 1 when no road is routable or the file cannot be written, \
                2 when the map cannot be read.
                """)

        @Argument(help: "The OpenStreetMap extract (.osm.pbf, or .osm XML); omitted with --synthetic-nodes.")
        var map: String?

        @Option(name: .customLong("synthetic-nodes"), help: ArgumentHelp(
            "Build a synthetic OpenStreetMap-like city of about N nodes instead of reading a map.", valueName: "N"))
        var syntheticNodes: Int?

        @Option(help: ArgumentHelp("With --synthetic-nodes: which synthetic city; the same seed gives the same graph.",
                                   valueName: "S"))
        var seed: UInt64 = 1

        @Option(name: .shortAndLong, help: ArgumentHelp("The graph file to write.", valueName: "CITY.graph"))
        var output: String

        @Option(help: ArgumentHelp("The routing profile: car or foot.", valueName: "NAME"))
        var profile = "car"

        @Option(name: .customLong("time-zone"), help: ArgumentHelp(
            "The city's time zone (IANA name, e.g. America/New_York), stored for departure hours. (default: none: hours in UTC, with a warning)",
            valueName: "NAME"))
        var timeZone: String?

        @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
            "A weekly speed profile file (docs/speed-profile.md) stored as the city's. (default: the built-in dense-city profile)",
            valueName: "FILE"))
        var speedProfile: String?

        @Flag(name: .customLong("free-flow"), help: ArgumentHelp(
            "Store free flow (no congestion in any hour) as the city's speed profile, instead of the built-in one."))
        var freeFlow = false

        @Option(help: ArgumentHelp(
            "A zone file (GeoJSON) whose zone of each edge is stored, for per-zone speed factors. (default: none)",
            valueName: "ZONES.geojson"))
        var zones: String?

        @OptionGroup var zoneFile: ZoneFileArguments

        func validate() throws {
            switch (map, syntheticNodes) {
            case (nil, nil): throw ValidationError("give a map file, or --synthetic-nodes N for a synthetic city")
            case (.some, .some): throw ValidationError("a map file and --synthetic-nodes exclude each other: build one or the other")
            case (nil, .some(let nodes)) where nodes < 100 || nodes > 50_000_000:
                throw ValidationError("--synthetic-nodes \(nodes) is out of range: give 100 to 50000000")
            default: break
            }
            guard RoutingProfiles.named(profile) != nil else {
                throw ValidationError("unknown profile '\(profile)': choose " + RoutingProfiles.all.map(\.name).joined(separator: " or "))
            }
            _ = try timeZone.map(cityTimeZone)
            guard !(freeFlow && speedProfile != nil) else {
                throw ValidationError("--free-flow and --speed-profile exclude each other: a graph carries one speed profile")
            }
        }

        func run() throws {
            let routingProfile = RoutingProfiles.named(profile)!
            let cityProfile: SpeedProfile = try freeFlow ? .freeFlow : speedProfile.map(readSpeedProfile) ?? .denseCity
            let clock = ContinuousClock()
            let start = clock.now

            let extract = try readExtract()
            printError("read \(extract.ways.count) highway ways, \(extract.nodeIDs.count) nodes, "
                       + "\(extract.restrictions.count) restriction relations in \(seconds(clock.now - start))")

            let result = GraphBuilder.build(extract, profile: routingProfile) { stage in printError(stage.rawValue) }
            guard result.graph.nodeCount > 0 else {
                printError("\(mapName): no road is routable with the \(profile) profile")
                throw ExitCode(1)
            }

            printError("ordering and contracting for queries (CCH)")
            let topology = CCHTopology(graph: result.graph)
            let edgeZones = try zones.map { try edgeZonesOrExit(path: $0, graph: result.graph) }
            let places = try readPlaces()
            printError("writing \(output)")
            let url = URL(fileURLWithPath: output)
            do {
                let source = try map.map { try GraphSource(describing: $0).sectionPayload }
                let routing = RoutingGraph.sections(
                    for: result.graph, topology: topology, timeZone: timeZone.flatMap(TimeZone.init(identifier:)),
                    speedProfile: cityProfile)
                try GraphFile.write(graph: result.graph, profile: routingProfile.name,
                                    extraSections: routing.merging([GraphFile.wayIDSection: GraphFile.bytes(of: result.edgeWayIDs)]) { $1 }
                                        .merging(source.map { [GraphSource.sectionName: $0] } ?? [:]) { $1 }
                                        .merging(edgeZones?.sections ?? [:]) { $1 }
                                        .merging(EdgeNames(edgeWayIDs: result.edgeWayIDs, ways: extract.ways).sections) { $1 }
                                        .merging(places.map { [PlaceCatalog.graphSection: $0.encoded()] } ?? [:]) { $1 },
                                    to: url)
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
            let elapsed = clock.now - start
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            print(summary(result, edgeZones: edgeZones, places: places, speedProfile: cityProfile, elapsed: elapsed, fileSize: size))
            if timeZone == nil { printError(RoutingGraph.missingTimeZoneWarning(graphPath: output)) }
        }

        /// What the command names the map by: its file, or the synthetic city's size and seed.
        private var mapName: String {
            map ?? "synthetic city of about \(syntheticNodes ?? 0) nodes, seed \(seed)"
        }

        /// The map file's OSM data, or the synthetic city drawn; exits 2 when the file cannot be read.
        private func readExtract() throws -> OSMExtract {
            printError(map == nil ? "drawing a \(mapName)" : "reading \(mapName)")
            guard let map else { return SyntheticMap.extract(nodes: syntheticNodes ?? 0, seed: seed) }
            do {
                return try OSMExtract(contentsOf: map)
            } catch {
                printError("\(error)")
                throw ExitCode(2)
            }
        }

        /// The map's addresses, streets and named places, for `places search`
        /// and `/v1/places`; none for a synthetic city. Exits 2 when the map cannot be read.
        private func readPlaces() throws -> PlaceCatalog? {
            guard let map else { return nil }
            printError("reading the addresses, streets and named places of \(map)")
            do {
                return PlaceCatalog(features: try NamedFeature.read(contentsOf: map))
            } catch {
                printError("\(error)")
                throw ExitCode(2)
            }
        }

        /// The zone of each edge of `graph`, from the zone file at `path`; exits when the file cannot be used.
        private func edgeZonesOrExit(path: String, graph: RoadGraph) throws -> EdgeZones {
            printError("finding the zone of each edge in \(path)")
            let loaded = try loadZonesOrExit(path: path, arguments: zoneFile)
            let index: ZoneIndex
            do {
                index = try ZoneIndex(zoneSet: loaded.zoneSet)
            } catch {
                printError("\(path): \(error)")
                throw ExitCode(2)
            }
            return EdgeZones(graph: graph, zoneIDs: loaded.zoneSet.zones.map(\.id.text), zoneAt: index.zonePosition(at:))
        }

        private func placesLine(_ places: PlaceCatalog?) -> String {
            guard let places else { return "none (a synthetic city has no addresses)" }
            return "\(places.addressCount) addresses, \(places.places.count - places.addressCount) named places, \(places.streets.count) streets"
        }

        private func summary(
            _ result: GraphBuildResult, edgeZones: EdgeZones?, places: PlaceCatalog?, speedProfile: SpeedProfile, elapsed: Duration,
            fileSize: Int
        ) -> String {
            let statistics = result.statistics
            let narrow = result.graph.edgeLaneClass.filter { $0 == .narrow }.count
            let wide = result.graph.edgeLaneClass.filter { $0 == .wide }.count
            let zoneLine = edgeZones.map { zones in
                let inside = zones.edgeZone.filter { $0 != EdgeZones.noZone }.count
                return "\nzones: \(zones.zoneIDs.count) zones, \(inside) edges inside one, \(result.graph.edgeCount - inside) outside"
            } ?? ""
            let skipped = statistics.restrictionsSkipped.sorted { $0.key < $1.key }
                .map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            return """
                nodes: \(result.graph.nodeCount)
                edges: \(result.graph.edgeCount)
                dropped nodes: \(statistics.droppedNodes) (outside the largest strongly connected component)
                restrictions: \(statistics.restrictionsApplied) applied, \(statistics.restrictionsSkippedTotal) skipped\
                \(skipped.isEmpty ? "" : " (\(skipped))")
                missing nodes: \(statistics.missingNodeReferences) references, \(statistics.waysWithMissingNodes) ways split
                lanes: \(narrow) edges narrow (at most 2 lanes per direction), \(wide) wide, \
                \(result.graph.edgeCount - narrow - wide) untagged\(zoneLine)
                places: \(placesLine(places))
                time zone: \(timeZone ?? "none (departure hours in UTC)")
                speed profile: \(speedProfile.summary)
                build time: \(seconds(elapsed))
                file: \(output), \(fileSize) bytes
                """
        }
    }
}
