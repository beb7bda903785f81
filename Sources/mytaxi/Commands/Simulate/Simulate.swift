import ArgumentParser

extension Mytaxi {
    /// `mytaxi simulate`: a simulated city against a running service.
    struct Simulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a simulated fleet and its passengers against a running service, over its real protocols and API; measure how the router learns travel times (learning).",
            subcommands: [SimulateRun.self, SimulatePlan.self, SimulateDevices.self, SimulateLearning.self],
            defaultSubcommand: SimulateRun.self)
    }
}
