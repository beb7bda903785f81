import ArgumentParser

/// `mytaxi-archivebench`: the archive's benchmarks, run on a release build:
/// the stores side by side (`stores`, the default) and the SQLite store's
/// segment compaction on a large archive (`compaction`).
@main
struct ArchiveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi-archivebench",
        abstract: "Benchmarks of the fix archive.",
        subcommands: [StoreComparison.self, CompactionBench.self],
        defaultSubcommand: StoreComparison.self)
}
