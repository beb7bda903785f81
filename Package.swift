// swift-tools-version: 6.1
import PackageDescription

/// Every target gets the same settings: Swift 6 language mode, explicit
/// existentials and member import visibility (see STYLE.md).
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "mytaxi",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mytaxi", targets: ["mytaxi"]),
        .library(name: "GeoKit", targets: ["GeoKit"]),
        .library(name: "Zones", targets: ["Zones"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .library(name: "Ingest", targets: ["Ingest"]),
        .library(name: "Routing", targets: ["Routing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // C libraries from Debian, found by pkg-config. Module map + shim header only.
        .systemLibrary(
            name: "CGEOS", pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(
            name: "CPROJ", pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]),

        // Geometry: coordinates, GeoJSON, safe wrappers over GEOS and PROJ.
        .target(
            name: "GeoKit", dependencies: ["CGEOS", "CPROJ"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "GeoKitTests", dependencies: ["GeoKit"],
            swiftSettings: swiftSettings),

        // Zones: load, validate, repair, border rule, neighbours, fast lookup.
        .target(
            name: "Zones", dependencies: ["GeoKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ZonesTests", dependencies: ["Zones", "GeoKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),

        // Fleet: device registry and the live index of taxis.
        .target(
            name: "Fleet", dependencies: ["Zones", "GeoKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FleetTests", dependencies: ["Fleet", "Zones", "GeoKit"],
            swiftSettings: swiftSettings),

        // Ingest: wire-protocol decoders (one per file), from bytes to DeviceFix.
        .target(
            name: "Ingest", dependencies: ["GeoKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "IngestTests", dependencies: ["Ingest", "GeoKit"],
            swiftSettings: swiftSettings),

        // Routing: OSM import, road graph, contraction hierarchies, ETAs.
        .target(
            name: "Routing", dependencies: ["GeoKit"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RoutingTests", dependencies: ["Routing", "GeoKit"],
            swiftSettings: swiftSettings),

        // The command-line tool: thin commands over the libraries.
        .executableTarget(
            name: "mytaxi",
            dependencies: [
                "GeoKit", "Zones", "Fleet", "Ingest", "Routing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "mytaxiTests", dependencies: ["mytaxi"],
            swiftSettings: swiftSettings),

        // Benchmarks (ordo-one/benchmark), run with `make bench`.
        .executableTarget(
            name: "ZoneLookupBenchmarks",
            dependencies: [
                "Zones", "GeoKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ZoneLookup",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
