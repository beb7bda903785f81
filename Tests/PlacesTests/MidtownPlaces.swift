import Foundation
@testable import Places

/// The demo city's places (Midtown Manhattan, from the shipped extract),
/// read and indexed once for every suite that searches them.
enum MidtownPlaces {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let extractPath = root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path
    static let catalog = PlaceCatalog(features: try! NamedFeature.read(contentsOf: extractPath))
    static let index = PlaceIndex(catalog: catalog)
}
