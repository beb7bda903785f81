import API
import ArgumentParser
import Dispatch
import Foundation
import Ingest
import Logging

/// `mytaxi serve`: the running service: ingest listeners for every wire
/// protocol, the durable archive, the live fleet index and the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the service: GPS ingest listeners, archive, live fleet index, HTTP API.",
        discussion: """
            Listeners (TCP unless noted; Traccar's ports for GT06, Teltonika and OsmAnd):
              line 5100 (TCP and UDP), nmea 5005, osmand 5055 (HTTP), teltonika 5027 (TCP and UDP), gt06 5023.
            Every fix is archived in DIR before its ACK is sent; after a crash the live index is rebuilt from DIR.
            SIGHUP reloads the devices file; SIGTERM or SIGINT stops after writing what is queued.
            Settings come from the flags, then the --config file (JSON, keys as the long flag names,
            e.g. {"zones": "zones.geojson", "http-port": 8080, "line-port": 5100}), then the defaults shown.
            A port of 0 picks a free port; "off" turns a listener off.
            """)

    @Option(help: ArgumentHelp("Zone GeoJSON file.", valueName: "FILE"))
    var zones: String?

    @Option(name: .customLong("id-property"), help: ArgumentHelp(
        "Zone id property (default: the feature id, then properties.id).", valueName: "NAME"))
    var idProperty: String?

    @Option(help: ArgumentHelp("Devices file: CSV lines device_id,taxi_id. Reloaded on SIGHUP.", valueName: "FILE"))
    var devices: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Directory of the fix archive (created if missing).", valueName: "DIR"))
    var dataDir: String?

    @Option(name: .customLong("http-port"), help: ArgumentHelp("HTTP API port. (default: 8080)", valueName: "PORT"))
    var httpPort: Int?

    @Option(help: ArgumentHelp("Address to listen on. (default: 127.0.0.1)", valueName: "ADDRESS"))
    var bind: String?

    @Option(help: ArgumentHelp("JSON config file; flags override it.", valueName: "FILE"))
    var config: String?

    @Option(name: .customLong("line-port"), help: ArgumentHelp("Line protocol port, TCP and UDP. (default: 5100)", valueName: "PORT"))
    var linePort: String?

    @Option(name: .customLong("nmea-port"), help: ArgumentHelp("NMEA port, TCP. (default: 5005)", valueName: "PORT"))
    var nmeaPort: String?

    @Option(name: .customLong("osmand-port"), help: ArgumentHelp("OsmAnd HTTP port. (default: 5055)", valueName: "PORT"))
    var osmandPort: String?

    @Option(name: .customLong("teltonika-port"), help: ArgumentHelp(
        "Teltonika port, TCP and UDP. (default: 5027)", valueName: "PORT"))
    var teltonikaPort: String?

    @Option(name: .customLong("gt06-port"), help: ArgumentHelp("GT06 port, TCP. (default: 5023)", valueName: "PORT"))
    var gt06Port: String?

    @Option(name: .customLong("stale-after"), help: ArgumentHelp(
        "Seconds of silence after which a taxi is stale. (default: 90)", valueName: "SECONDS"))
    var staleAfter: Double?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds of silence after which a terminal's connection is closed. (default: 300)", valueName: "SECONDS"))
    var idleTimeout: Double?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("trace, debug, info, warning, error. (default: info)", valueName: "LEVEL"))
    var logLevel: String?

    func run() async throws {
        let configuration: ServiceConfiguration
        do {
            configuration = try resolvedConfiguration()
        } catch let error as ValidationError {
            printError("mytaxi serve: \(error.message)")
            throw ExitCode(2)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: logLevel ?? "info") ?? .info
            return handler
        }
        let logger = Logger(label: "mytaxi")
        let service: MytaxiService
        do {
            try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
            let host = configuration.bindHost
            service = try MytaxiService(configuration: configuration, logger: logger) { listener, port in
                // One stable line per listener on stdout, for scripts and tests (ports may be chosen by the OS).
                FileHandle.standardOutput.write(Data("listening \(listener) \(host):\(port)\n".utf8))
            }
        } catch {
            printError("mytaxi serve: \(error)")
            throw ExitCode(2)
        }
        let signals = SignalWatch()
        signals.onReload { service.reloadDevices() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            group.addTask {
                await signals.waitForStop()
                logger.info("stopping: writing queued fixes")
            }
            try await group.next()
            group.cancelAll()
        }
        await service.shutdown()
    }

    /// Flags over the config file over the defaults; names what is missing or wrong.
    func resolvedConfiguration() throws -> ServiceConfiguration {
        let file = try config.map(ConfigFile.load) ?? ConfigFile()
        guard let zones = zones ?? file.string("zones") else {
            throw ValidationError("missing --zones FILE (or \"zones\" in the config file)")
        }
        guard let devices = devices ?? file.string("devices") else {
            throw ValidationError("missing --devices FILE (or \"devices\" in the config file)")
        }
        guard let dataDir = dataDir ?? file.string("data-dir") else {
            throw ValidationError("missing --data-dir DIR (or \"data-dir\" in the config file)")
        }
        var configuration = ServiceConfiguration(zonesPath: zones, devicesPath: devices, dataDirectory: dataDir)
        configuration.zoneIdProperty = idProperty ?? file.string("id-property")
        configuration.bindHost = bind ?? file.string("bind") ?? configuration.bindHost
        configuration.httpPort = try httpPort ?? file.int("http-port") ?? configuration.httpPort
        configuration.staleAfterSeconds = try staleAfter ?? file.double("stale-after") ?? configuration.staleAfterSeconds
        configuration.idleTimeoutSeconds = try idleTimeout ?? file.double("idle-timeout") ?? configuration.idleTimeoutSeconds
        let ports: [(flag: String, value: String?, tcp: WireProtocol?, udp: WireProtocol?)] = [
            ("line-port", linePort, .line, .line), ("nmea-port", nmeaPort, .nmea, nil),
            ("osmand-port", osmandPort, .osmand, nil), ("teltonika-port", teltonikaPort, .teltonika, .teltonikaUDP),
            ("gt06-port", gt06Port, .gt06, nil),
        ]
        for port in ports {
            guard let text = port.value ?? file.string(port.flag) else { continue }
            let number: Int?
            if text == "off" {
                number = nil
            } else if let value = Int(text), (0...65535).contains(value) {
                number = value
            } else {
                throw ValidationError("--\(port.flag) must be a port number 0...65535 or \"off\", not '\(text)'")
            }
            if let tcp = port.tcp { configuration.tcpPorts[tcp] = number }
            if let udp = port.udp { configuration.udpPorts[udp] = number }
        }
        return configuration
    }
}
