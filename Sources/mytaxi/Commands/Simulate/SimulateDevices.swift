import ArgumentParser
import FleetSimulator
import Foundation

extension Mytaxi.Simulate {
    /// `mytaxi simulate devices`: the devices file the service needs for the simulated fleet.
    struct SimulateDevices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "Write the devices file (device_id,taxi_id) of a simulated fleet, for `mytaxi serve --devices`.",
            discussion: """
                Taxi i (from 1) is TX00000i; its terminal speaks the line protocol, Teltonika and \
                GT06 in turn (taxi 1 line, 2 Teltonika, 3 GT06, 4 line, ...), with the device id \
                sim-TX00000i on the line protocol and a 15-digit IMEI on the others.
                """)

        @Option(help: ArgumentHelp("Taxis in the fleet.", valueName: "N"))
        var taxis: Int

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "FILE"))
        var output: String

        func validate() throws {
            guard (1...100_000).contains(taxis) else { throw ValidationError("--taxis must be from 1 to 100000, not \(taxis)") }
        }

        func run() throws {
            do {
                try TerminalKind.devicesFile(taxis: taxis).write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                printError("\(output): cannot be written: \(error.localizedDescription)")
                throw ExitCode(2)
            }
            print("wrote \(taxis) devices to \(output)")
        }
    }
}
