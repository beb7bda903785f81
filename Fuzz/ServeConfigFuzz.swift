import Foundation
import ServeConfig

/// `mytaxi serve --config FILE`: the file's bytes read as ``ServeSettings``
/// and checked into the service's configuration, as `serve` does before it
/// starts. A refusal (a `ValidationError` naming the setting) is fine; a
/// trap is a finding.
enum ServeConfigFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let settings = try? ServeSettings.read(Data(bytes), named: "fuzzed config file") else { return }
        _ = try? settings.configuration()
    }
}
