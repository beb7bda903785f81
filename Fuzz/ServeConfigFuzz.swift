import ArgumentParser
import Foundation
import ServeConfig

/// `mytaxi serve --config FILE`: the file's bytes read as the arguments they
/// stand for, parsed as `serve`'s options and checked into the service's
/// configuration, as `serve` does before it starts. A refusal (an error
/// naming the setting) is fine; a trap is a finding.
enum ServeConfigFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let arguments = try? ConfigFileArguments.read(Data(bytes), named: "fuzzed config file"),
              let options = try? ServeOptions.parse(arguments)
        else { return }
        _ = try? options.configuration()
    }
}
