import ArgumentParser

extension Mytaxi {
    /// `mytaxi zones`: the planners' tools for zone files.
    struct Zones: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check, repair, build, compare, draw and publish zone files; find the zone of points, list zone neighbours.",
            discussion: """
                A zone file is a GeoJSON FeatureCollection (RFC 7946, WGS84) of Polygon and \
                MultiPolygon features, each with a unique id and a name. A point on a border \
                shared by several zones belongs to the zone with the smallest id.
                """,
            subcommands: [
                Validate.self, Lookup.self, Neighbours.self, Repair.self, Coverage.self, Diff.self, Simplify.self,
                Grid.self, Voronoi.self, Import.self, Render.self, Publish.self,
            ]
        )
    }
}
