import ArgumentParser

extension Mytaxi {
    /// `mytaxi graph`: build and inspect road graph files.
    struct Graph: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build a road graph from OpenStreetMap, describe a graph file, calibrate its speed profile, export the speeds learned from the fleet.",
            discussion: """
                A graph file holds the roads one profile (car or foot) may use, as a directed graph \
                with travel times, restricted turns applied and stray fragments removed. Build it \
                once per map and profile; the service loads it in milliseconds.
                """,
            subcommands: [Build.self, Info.self, Calibrate.self, LearnedProfile.self]
        )
    }
}
