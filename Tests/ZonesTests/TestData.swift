import Foundation
import Testing
import Zones

/// Where the tests find their files: fixtures beside the tests, the shipped
/// zones, and the shared reference data (which may be absent).
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/ZonesTests/Fixtures/\(name)").path
    }

    static func shipped(_ city: String) -> String {
        packageRoot.appendingPathComponent("Zones/\(city)/zones.geojson").path
    }

    /// The path of a shared data file, or nil (the test then skips) when absent.
    static func shared(_ relativePath: String) -> String? {
        let path = sharedData.appendingPathComponent(relativePath).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static var nycZonesAvailable: Bool { shared("nyc/taxi_zones.geojson") != nil }
    static let nycOptions = ZoneFileOptions(idProperty: "LocationID", nameProperty: "zone")

    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
