// swift-tools-version: 6.1
import PackageDescription

/// Every target gets the same settings: Swift 6 language mode, explicit
/// existentials and member import visibility (see STYLE.md).
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The product's libraries are optimised in debug builds too: the tests spend
/// most of their time in them (routing, zone indexes, the services the tests
/// start), and unoptimised generic code runs them several times slower.
let librarySettings = swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "mytaxi",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "mytaxi", targets: ["mytaxi"]),
        .executable(name: "mytaxi-loadgen", targets: ["mytaxi-loadgen"]),
        .executable(name: "mytaxi-apiload", targets: ["mytaxi-apiload"]),
        .executable(name: "mytaxi-fuzz", targets: ["mytaxi-fuzz"]),
        .library(name: "Identifiers", targets: ["Identifiers"]),
        .library(name: "JSONKit", targets: ["JSONKit"]),
        .library(name: "GeoKit", targets: ["GeoKit"]),
        .library(name: "Zones", targets: ["Zones"]),
        .library(name: "ZoneTools", targets: ["ZoneTools"]),
        .library(name: "FixRecords", targets: ["FixRecords"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .library(name: "ServiceClock", targets: ["ServiceClock"]),
        .library(name: "Ingest", targets: ["Ingest"]),
        .library(name: "Routing", targets: ["Routing"]),
        .library(name: "Places", targets: ["Places"]),
        .library(name: "DispatchCore", targets: ["DispatchCore"]),
        .library(name: "DispatchRuntime", targets: ["DispatchRuntime"]),
        .library(name: "Accounts", targets: ["Accounts"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .library(name: "Mail", targets: ["Mail"]),
        .library(name: "MytaxiServer", targets: ["MytaxiServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3" ..< "5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // C libraries from Debian, found by pkg-config. Module map + shim header only.
        .systemLibrary(
            name: "CGEOS", pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(
            name: "CPROJ", pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]),
        .systemLibrary(
            name: "CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),

        // Identifiers: the two shapes every id has, text as written (taxis, zones,
        // passengers) and numbered by the engine (ride requests, reservations).
        .target(name: "Identifiers", swiftSettings: librarySettings),
        .testTarget(name: "IdentifiersTests", dependencies: ["Identifiers"], swiftSettings: swiftSettings),

        // JSONKit: JSON read and written by hand where Foundation's coders are
        // too slow or too vague about errors (zone files, the dispatch log, the fleet).
        .target(name: "JSONKit", swiftSettings: librarySettings),
        .testTarget(name: "JSONKitTests", dependencies: ["JSONKit"], swiftSettings: swiftSettings),

        // Geometry: coordinates, GeoJSON, safe wrappers over GEOS and PROJ.
        .target(
            name: "GeoKit", dependencies: ["CGEOS", "CPROJ", "JSONKit"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "GeoKitTests", dependencies: ["TestSupport", "GeoKit"],
            swiftSettings: swiftSettings),

        // Zones: load, validate, repair, border rule, neighbours, fast lookup.
        .target(
            name: "Zones", dependencies: ["GeoKit", "Identifiers", "JSONKit"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "ZonesTests", dependencies: ["TestSupport", "Zones", "GeoKit", "JSONKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),

        // ZoneTools: the planners' tools over zone files (repair, coverage, diff, ...):
        // each reads zones and returns a result the command line prints or writes.
        .target(
            name: "ZoneTools", dependencies: ["Zones", "GeoKit", "JSONKit", "COsmium"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "ZoneToolsTests", dependencies: ["TestSupport", "ZoneTools", "Zones", "GeoKit", "JSONKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),

        // ServiceClock: the one source of wall and monotonic time, a manual clock for tests, and
        // the rules of a deadline that closes a connection (DeadlineStateMachine), on any clock.
        .target(name: "ServiceClock", swiftSettings: librarySettings),
        .testTarget(name: "ServiceClockTests", dependencies: ["TestSupport", "ServiceClock"], swiftSettings: swiftSettings),

        // FixRecords: what ingest hands to storage and storage keeps (taxi ids,
        // wire protocols, accepted fixes, the durable sink), below both, so that
        // Storage imports neither Ingest, Fleet nor NIO.
        .target(name: "FixRecords", dependencies: ["GeoKit", "Zones", "Identifiers"], swiftSettings: librarySettings),

        // Fleet: device registry and the live index of taxis.
        .target(
            name: "Fleet", dependencies: ["FixRecords", "Zones", "GeoKit"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "FleetTests", dependencies: ["TestSupport", "Fleet", "FixRecords", "Zones", "GeoKit"],
            swiftSettings: swiftSettings),

        // Ingest: wire-protocol decoders (one per file), from bytes to DeviceFix.
        .target(
            name: "Ingest",
            dependencies: [
                "GeoKit", "JSONKit", "Zones", "Fleet", "FixRecords", "ServiceClock",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "IngestTests",
            dependencies: [
                "TestSupport",
                "Ingest", "GeoKit", "JSONKit", "Fleet", "FixRecords",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),

        // OpenStreetMap reading with libosmium (Debian libosmium2-dev): a thin C++ shim
        // handing highway ways, their nodes and turn restrictions to Swift. Optimised even
        // in debug builds: header-only libosmium at -O0 reads Manhattan 8x slower (0.63 s
        // instead of 0.08 s), which every test and `graph build` would pay.
        .target(
            name: "COsmium",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [
                .linkedLibrary("z"), .linkedLibrary("bz2"),
                .linkedLibrary("expat"), .linkedLibrary("pthread"),
            ]),

        // Places: addresses, streets and named places from the same OSM extract, and
        // their search (typed text, autocomplete, typos) and reverse search.
        .target(
            name: "Places", dependencies: ["GeoKit", "JSONKit", "COsmium"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "PlacesTests", dependencies: ["TestSupport", "Places", "GeoKit"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),

        // Routing: OSM import, road graph, contraction hierarchies, ETAs.
        .target(
            name: "Routing", dependencies: ["GeoKit", "COsmium"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "RoutingTests", dependencies: ["TestSupport", "Routing", "GeoKit", "Zones"],
            swiftSettings: swiftSettings),

        // DispatchCore: the dispatch engine's pure core (driver states, zone queues,
        // requests, offers, passenger queues, rides), driven by commands, fleet
        // events and explicit times; no I/O. Not `Dispatch`: that is libdispatch.
        .target(
            name: "DispatchCore", dependencies: ["FixRecords", "Zones", "GeoKit", "Fleet", "Identifiers"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "DispatchCoreTests",
            dependencies: [
                "TestSupport",
                "DispatchCore", "FixRecords", "Zones", "GeoKit", "Fleet", "ServiceClock",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings),

        // DispatchRuntime: the one owner of the dispatch engine in the service,
        // making every command durable in the dispatch log before it is told.
        .target(
            name: "DispatchRuntime",
            dependencies: [
                "DispatchCore", "Storage", "Fleet", "FixRecords", "ServiceClock", "Zones", "GeoKit", "JSONKit", "Routing",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "DispatchRuntimeTests",
            dependencies: [
                "TestSupport",
                "DispatchRuntime", "DispatchCore", "Storage", "Fleet", "FixRecords", "ServiceClock", "Zones", "GeoKit", "JSONKit",
                "Routing",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings),

        // DispatchSimulation: the engine against a simulated fleet on the road graph.
        .target(
            name: "DispatchSimulation",
            dependencies: ["DispatchCore", "DispatchRuntime", "Routing", "Zones", "GeoKit", "FixRecords", "Fleet"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "DispatchSimulationTests", dependencies: ["TestSupport", "DispatchSimulation", "Routing", "GeoKit"],
            swiftSettings: swiftSettings),

        // LearningSimulation: how well the router learns speeds from simulated taxis' fixes.
        .target(
            name: "LearningSimulation",
            dependencies: ["Routing", "GeoKit"],
            swiftSettings: librarySettings),
        .testTarget(
            name: "LearningSimulationTests", dependencies: ["TestSupport", "LearningSimulation", "Routing", "GeoKit"],
            swiftSettings: swiftSettings),

        // FleetSimulator: a simulated city against a running service over its real
        // interfaces (terminals on the wire protocols, drivers and passengers on the API).
        .target(
            name: "FleetSimulator",
            dependencies: [
                "DispatchSimulation", "Routing", "Zones", "GeoKit", "Ingest",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: librarySettings),

        // Storage: the contract of every store (fixes, dispatch log, accounts,
        // zone sets, learned speeds), their records, in-memory stores and the
        // group committer: what the layers above depend on, with no database in it.
        .target(
            name: "Storage",
            dependencies: ["FixRecords", "GeoKit", "Zones", "ServiceClock"],
            swiftSettings: librarySettings),

        // SQLiteStorage: every Storage contract on SQLite files in the data
        // directory (GRDB), the embedded default, and its online backup into one
        // ZIP archive (ZIPFoundation) and restore.
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "Storage", "FixRecords", "GeoKit", "Zones", "ServiceClock",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "TestSupport",
                "Storage", "SQLiteStorage", "PostgresStorage", "FixRecords", "Ingest", "Fleet", "GeoKit", "JSONKit", "Zones", "ServiceClock",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),

        // PostgresStorage: every Storage protocol on PostgreSQL + PostGIS over libpq
        // (Debian libpq-dev), for operators who outgrow the embedded SQLite store.
        .target(
            name: "PostgresStorage",
            dependencies: ["Storage", "SQLiteStorage", "CLibPQ", "FixRecords", "GeoKit", "JSONKit", "Zones", "ServiceClock"],
            swiftSettings: librarySettings),

        // Accounts: registration, passwords (bcrypt), bearer tokens, e-mail
        // confirmation and the outbox, over an AccountStore; no HTTP.
        .target(
            name: "Accounts",
            dependencies: [
                "Storage", "FixRecords", "ServiceClock",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "AccountsTests",
            dependencies: [
                "TestSupport",
                "Accounts", "Storage", "SQLiteStorage", "FixRecords", "ServiceClock",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ],
            swiftSettings: swiftSettings),

        // Mail: the outbox delivered by SMTP to a relay (STARTTLS or TLS, AUTH), over SwiftNIO.
        .target(
            name: "Mail",
            dependencies: [
                "Storage", "ServiceClock",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "MailTests",
            dependencies: ["TestSupport", "Mail", "Storage", "ServiceClock", .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: swiftSettings),

        // API: the HTTP server (Hummingbird): fleet queries, archive, health, metrics.
        .target(
            name: "API",
            dependencies: [
                "Ingest", "Fleet", "FixRecords", "Storage", "Zones", "GeoKit", "JSONKit", "ServiceClock", "DispatchCore",
                "DispatchRuntime", "Routing", "Places", "Accounts",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            resources: [
                .copy("Resources/openapi.json"), .copy("Resources/web"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "APITests",
            dependencies: [
                "TestSupport",
                "API", "MytaxiServer", "Ingest", "Fleet", "FixRecords", "Storage", "SQLiteStorage", "Zones", "GeoKit", "ServiceClock",
                "Accounts", "DispatchRuntime", "DispatchCore", "Routing", "Places", "JSONKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),

        // MytaxiServer: the service of `mytaxi serve` built in one place
        // (`buildService`): its configuration, stores, inputs read from
        // files, and every part as a service of one ServiceGroup.
        .target(
            name: "MytaxiServer",
            dependencies: [
                "API", "Mail", "Ingest", "Fleet", "FixRecords", "Storage", "SQLiteStorage", "PostgresStorage", "Zones", "GeoKit", "ServiceClock",
                "DispatchCore", "DispatchRuntime", "Routing", "Places", "Accounts",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: librarySettings),
        .testTarget(
            name: "MytaxiServerTests",
            dependencies: [
                "TestSupport", "MytaxiServer", "API", "Fleet", "FixRecords", "Storage", "SQLiteStorage", "Zones", "GeoKit",
                "ServiceClock", "DispatchRuntime", "Routing",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),

        // TestSupport: what every test target shares (waiting for a condition
        // with a deadline, the tags that sort suites into `make test`'s passes).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),

        // ServeConfig: `mytaxi serve`'s settings from its flags and its --config
        // file, checked into the service's configuration; a library so that
        // the fuzz targets read config files with the same code.
        .target(
            name: "ServeConfig",
            dependencies: [
                "MytaxiServer", "API", "Mail", "Accounts", "FixRecords", "Ingest", "DispatchCore", "Zones",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: librarySettings),

        // The command-line tool: thin commands over the libraries.
        .executableTarget(
            name: "mytaxi",
            dependencies: [
                "GeoKit", "JSONKit", "Zones", "ZoneTools", "Fleet", "FixRecords", "Ingest", "Routing", "Places", "Storage", "SQLiteStorage",
                "PostgresStorage", "API", "MytaxiServer",
                "DispatchCore", "DispatchSimulation", "FleetSimulator", "LearningSimulation", "Accounts", "ServeConfig",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "mytaxiTests",
            dependencies: [
                "TestSupport",
                "mytaxi", "Ingest", "FixRecords", "GeoKit", "JSONKit", "DispatchCore", "Routing",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings),

        // The load generator and trace replayer (Tools/LoadGen), for benchmarks and durability tests.
        .executableTarget(
            name: "mytaxi-loadgen",
            dependencies: [
                "Ingest", "FixRecords", "GeoKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tools/LoadGen",
            swiftSettings: swiftSettings),

        // The archive benchmark (Tools/ArchiveBench): PostgreSQL COPY vs INSERT vs SQLite, same batches.
        .executableTarget(
            name: "mytaxi-archivebench",
            dependencies: [
                "Storage", "SQLiteStorage", "PostgresStorage", "FixRecords", "GeoKit", "Zones",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/ArchiveBench",
            swiftSettings: swiftSettings),

        // The dispatch API's load driver (Tools/APILoad): push sockets and a burst of ride requests.
        .executableTarget(
            name: "mytaxi-apiload",
            dependencies: [
                "GeoKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tools/APILoad",
            swiftSettings: swiftSettings),

        // Fuzz targets (Fuzz/, `make fuzz`): every decoder, the pipeline, zone-set
        // uploads, graph files, speed profiles and serve's config file under
        // libFuzzer when built with -DFUZZING -sanitize=fuzzer (Tools/fuzz.sh); a
        // replayer of saved inputs otherwise, which the tests run over the seeds.
        .executableTarget(
            name: "mytaxi-fuzz",
            dependencies: [
                "Ingest", "Fleet", "FixRecords", "GeoKit", "JSONKit", "ServiceClock", "Zones", "Routing", "ServeConfig",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Fuzz",
            exclude: ["Seeds"],
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
        .executableTarget(
            name: "IngestDecoderBenchmarks",
            dependencies: [
                "Ingest", "Fleet", "FixRecords", "Zones",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/IngestDecoders",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "RoutingBenchmarks",
            dependencies: [
                "Routing", "GeoKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Routing",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "DispatchBenchmarks",
            dependencies: [
                "DispatchRuntime", "DispatchCore", "Storage", "SQLiteStorage", "FixRecords", "Fleet", "GeoKit", "Zones", "ServiceClock",
                "Routing",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Dispatch",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "APIBenchmarks",
            dependencies: [
                "API", "Fleet", "FixRecords", "GeoKit", "Zones",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/API",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "PlacesBenchmarks",
            dependencies: [
                "Places", "GeoKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Places",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "ArchiveBenchmarks",
            dependencies: [
                "Storage", "SQLiteStorage", "FixRecords", "Ingest", "Fleet", "GeoKit", "Zones",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Archive",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ],
    cxxLanguageStandard: .cxx17
)
