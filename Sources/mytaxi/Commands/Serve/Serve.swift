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

    @Option(help: ArgumentHelp(
        "Address the HTTP API (with /metrics and the fleet's positions) listens on. (default: 127.0.0.1)",
        valueName: "ADDRESS"))
    var bind: String?

    @Option(name: .customLong("ingest-bind"), help: ArgumentHelp(
        "Address the terminals' listeners (TCP, UDP, OsmAnd) listen on, so that ingest can face the terminals' network without the API. (default: the --bind address)",
        valueName: "ADDRESS"))
    var ingestBind: String?

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
        "Seconds of silence after which a terminal's connection is closed; longer than the 10-minute reporting period terminals may use. (default: 900)",
        valueName: "SECONDS"))
    var idleTimeout: Double?

    @Option(name: .customLong("login-timeout"), help: ArgumentHelp(
        "Seconds a new terminal connection has to name a registered device (login, IMEI or a fix) before it is closed. (default: 30)",
        valueName: "SECONDS"))
    var loginTimeout: Double?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open TCP connections of all ingest listeners together; more are closed at once and counted in mytaxi_connections_refused_total. (default: 20000)",
        valueName: "N"))
    var maxConnections: Int?

    @Option(name: .customLong("http-timeout"), help: ArgumentHelp(
        "Seconds an HTTP client (API, OsmAnd) has to send a whole request; idle keep-alive connections close after it too. (default: 30)",
        valueName: "SECONDS"))
    var httpTimeout: Double?

    @Option(name: .customLong("http-max-connections"), help: ArgumentHelp(
        "Open connections per HTTP server (API, OsmAnd); more wait in the listen queue. (default: 10000)",
        valueName: "N"))
    var httpMaxConnections: Int?

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
            let (apiHost, ingestHost) = (configuration.bindHost, configuration.effectiveIngestBindHost)
            service = try MytaxiService(configuration: configuration, logger: logger) { listener, port in
                // One stable line per listener on stdout, for scripts and tests (ports may be chosen by the OS).
                let host = listener == "http" ? apiHost : ingestHost
                FileHandle.standardOutput.write(Data("listening \(listener) \(host):\(port)\n".utf8))
            }
        } catch {
            printError("mytaxi serve: \(error)")
            throw ExitCode(2)
        }
        try await service.run()
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
        configuration.ingestBindHost = ingestBind ?? file.string("ingest-bind")
        configuration.httpPort = try Self.port(httpPort ?? file.int("http-port") ?? configuration.httpPort, flag: "http-port")
        configuration.staleAfterSeconds = try Self.seconds(
            staleAfter ?? file.double("stale-after") ?? configuration.staleAfterSeconds, flag: "stale-after")
        configuration.idleTimeoutSeconds = try Self.seconds(
            idleTimeout ?? file.double("idle-timeout") ?? configuration.idleTimeoutSeconds, flag: "idle-timeout")
        configuration.loginTimeoutSeconds = try Self.seconds(
            loginTimeout ?? file.double("login-timeout") ?? configuration.loginTimeoutSeconds, flag: "login-timeout")
        configuration.httpTimeoutSeconds = try Self.seconds(
            httpTimeout ?? file.double("http-timeout") ?? configuration.httpTimeoutSeconds, flag: "http-timeout")
        configuration.maxIngestConnections = try Self.count(
            maxConnections ?? file.int("max-connections") ?? configuration.maxIngestConnections, flag: "max-connections")
        configuration.maxHTTPConnections = try Self.count(
            httpMaxConnections ?? file.int("http-max-connections") ?? configuration.maxHTTPConnections,
            flag: "http-max-connections")
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

    /// A duration in seconds from a flag or the config file: finite, above
    /// zero and at most a week (a NaN would pass every comparison and trap
    /// where it becomes a timer).
    static func seconds(_ value: Double, flag: String) throws -> Double {
        guard value.isFinite, value > 0, value <= 7 * 24 * 3600 else {
            throw ValidationError("--\(flag) must be a number of seconds above 0 and at most 604800 (a week), not '\(value)'")
        }
        return value
    }

    /// A connection count from a flag or the config file: 1 or more.
    static func count(_ value: Int, flag: String) throws -> Int {
        guard value >= 1, value <= 10_000_000 else {
            throw ValidationError("--\(flag) must be a whole number from 1 to 10000000, not '\(value)'")
        }
        return value
    }

    /// A TCP port from a flag or the config file (0: the OS picks one).
    static func port(_ value: Int, flag: String) throws -> Int {
        guard (0...65535).contains(value) else {
            throw ValidationError("--\(flag) must be a port number 0...65535, not '\(value)'")
        }
        return value
    }
}
