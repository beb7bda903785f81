import Benchmark
import Foundation
import GeoKit
import Zones

/// Zone lookup on the NYC taxi zones (263 zones, 4 MB; from ../shared/data,
/// or the shipped Manhattan zones when that is absent), one core:
/// the accelerated ``ZoneIndex`` against the plain STRtree + prepared GEOS
/// path, on points uniform over the bounding box and points inside zones;
/// and the time to load, validate and index the file.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.throughput, .wallClock], warmupIterations: 1,
                                           maxDuration: .seconds(3), maxIterations: 20)
    let city = BenchmarkCity.load()
    let index = try! ZoneIndex(zoneSet: city.zoneSet)
    let uniform = city.uniformPoints(count: 1 << 20, seed: 1)
    let inside = city.pointsInsideZones(count: 1 << 20, index: index, seed: 2)
    let mask = (1 << 20) - 1

    for (label, points) in [("uniform in bbox", uniform), ("inside zones", inside)] {
        Benchmark("ZoneIndex lookup, \(label) (\(city.name))", configuration: .init(scalingFactor: .mega)) { benchmark in
            for iteration in benchmark.scaledIterations {
                blackHole(index.zonePosition(at: points[iteration & mask]))
            }
        }
        Benchmark("Plain STRtree + prepared GEOS lookup, \(label) (\(city.name))",
                  configuration: .init(scalingFactor: .kilo)) { benchmark in
            let plain = try PlainZoneLookup(zoneSet: city.zoneSet)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                blackHole(try plain.zonePosition(at: points[(iteration &* 7919) & mask]))
            }
        }
    }

    Benchmark("Load + validate + index (\(city.name))",
              configuration: .init(metrics: [.wallClock, .peakMemoryResident,
                                             .custom("index tables (MB)", useScalingFactor: false)],
                                   maxIterations: 5)) { benchmark in
        let loaded = try ZoneFileLoader.load(path: city.path, options: city.options)
        let built = try ZoneIndex(zoneSet: loaded.zoneSet)
        benchmark.measurement(.custom("index tables (MB)", useScalingFactor: false), built.tableBytes >> 20)
    }
}

/// The zone file the benchmarks run on, with the points they look up.
struct BenchmarkCity: Sendable {
    let name: String
    let path: String
    let options: ZoneFileOptions
    let zoneSet: ZoneSet

    static func load() -> BenchmarkCity {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let nyc = root.deletingLastPathComponent().appendingPathComponent("shared/data/nyc/taxi_zones.geojson").path
        let (name, path, options) = FileManager.default.fileExists(atPath: nyc)
            ? ("NYC", nyc, ZoneFileOptions(idProperty: "LocationID", nameProperty: "zone"))
            : ("Manhattan, shipped", root.appendingPathComponent("Zones/manhattan/zones.geojson").path, ZoneFileOptions())
        let zoneSet = try! ZoneFileLoader.load(path: path, options: options).zoneSet
        return BenchmarkCity(name: name, path: path, options: options, zoneSet: zoneSet)
    }

    func uniformPoints(count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(state: seed)
        let box = zoneSet.boundingBox!
        return (0..<count).map { _ in
            Coordinate(longitude: .random(in: box.minX...box.maxX, using: &random),
                       latitude: .random(in: box.minY...box.maxY, using: &random))
        }
    }

    func pointsInsideZones(count: Int, index: ZoneIndex, seed: UInt64) -> [Coordinate] {
        var result: [Coordinate] = []
        var round: UInt64 = 0
        while result.count < count {
            result += uniformPoints(count: count, seed: seed &+ round).filter { index.zonePosition(at: $0) != nil }
            round += 1
        }
        return Array(result.prefix(count))
    }
}

/// A small seeded generator so that every run looks up the same points.
