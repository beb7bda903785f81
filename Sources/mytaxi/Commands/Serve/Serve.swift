import MytaxiServer
import ArgumentParser
import Dispatch
import Foundation
import Ingest
import Logging
import ServeConfig
import ServiceLifecycle

/// `mytaxi serve`: the running service: ingest listeners for every wire
/// protocol, the durable archive, the live fleet index and the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service: GPS ingest listeners, archive, live fleet index, dispatch engine, HTTP API.",
        discussion: """
            Listeners (TCP unless noted; Traccar's ports for GT06, Teltonika and OsmAnd): line 5100 (TCP and UDP), nmea 5005, osmand 5055 (HTTP), teltonika 5027 (TCP and UDP), gt06 5023. A port of 0 picks a free port; "off" turns a listener off.

            Every fix is archived in DIR (or in PostgreSQL with --database) before its ACK is sent; after a crash the live index is rebuilt from it. While PostgreSQL is down, no fix is acknowledged and /healthz says 503.

            SIGHUP reloads the devices file and the zones file; SIGTERM or SIGINT stops after writing what is queued. Each terminal connection takes a file descriptor: the soft open-file limit is raised to the hard limit at start, and a warning says when the devices file has more devices than fit.

            Settings come from the flags, then the --config file (JSON, keys as the long flag names, e.g. {"zones": "zones.geojson", "http-port": 8080, "line-port": 5100, "require-device-secret": true}; a key that is no flag is refused), then the defaults shown.

            A device with a secret in the devices file must present it: in a LOGIN line (line protocol) or the key parameter (OsmAnd); GT06, Teltonika and NMEA cannot, see --ingest-allow.
            """)

    @OptionGroup var options: ServeOptions

    /// Checks every setting, from the flags and the config file, before
    /// anything starts: a bad one is named with exit status 2.
    func validate() throws {
        _ = try resolvedConfiguration()
    }

    func run() async throws {
        let configuration = try resolvedConfiguration()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: options.output.logLevel ?? "info") ?? .info
            return handler
        }
        let logger = Logger(label: "mytaxi")
        let service: ServiceGroup
        do {
            if let directory = configuration.dataDirectory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let (apiHost, ingestHost) = (configuration.bindHost, configuration.effectiveIngestBindHost)
            let stores = try ServiceStores.open(configuration, logger: logger)
            service = try await buildService(
                configuration: configuration, stores: stores, clock: configuration.makeClock(), logger: logger
            ) { listener, port in
                // One stable line per listener on stdout, for scripts and tests (ports may be chosen by the OS).
                let host = listener == "http" ? apiHost : ingestHost
                FileHandle.standardOutput.write(Data("listening \(listener) \(host):\(port)\n".utf8))
            }
        } catch {
            printError("mytaxi serve: \(error)")
            throw ExitCode(2)
        }
        try await service.run()
        logger.info("stopped: every queued fix was written")
    }

    /// Flags over the config file over the defaults; names what is missing or wrong.
    func resolvedConfiguration() throws -> ServiceConfiguration {
        try ServeOptions.resolved(given: Self.givenArguments).configuration()
    }

    /// The arguments `serve` was given on the command line: what follows
    /// `mytaxi serve`, which ``ServeOptions/resolved(given:)`` parses again
    /// after the config file's so that the flags win.
    static var givenArguments: [String] {
        let arguments = CommandLine.arguments
        guard let serve = arguments.dropFirst().firstIndex(of: "serve") else { return [] }
        return Array(arguments[(serve + 1)...])
    }
}
