import Foundation
import Zones

/// Where the tests find their files: fixtures beside the tests, the shipped
/// zones, and the shared reference data (which may be absent).
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/ZoneToolsTests/Fixtures/\(name)").path
    }

    static func zonesFixture(_ name: String) -> String {
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
}
