import ArgumentParser

extension Mytaxi {
    /// `mytaxi dispatch ...`: the dispatch engine's commands.
    struct Dispatch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The dispatch engine: simulate it against a simulated fleet.",
            subcommands: [DispatchSimulate.self])
    }
}
