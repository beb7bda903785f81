import API
import MytaxiServer
import Accounts
import ArgumentParser
import FixRecords
import Foundation
import Ingest
import TaxiDispatch

/// Every setting of `mytaxi serve`, as the flags or the `--config` file give
/// it (a JSON object keyed by the long flag names); nil where not given.
/// The flags and the file are read into this one type, merged in one place
/// (``overlaid(on:)``: flags win) and checked in one place
/// (``configuration()``: defaults fill the rest), so a new setting is one
/// field here, one flag, and one line in ``configuration()``.
public struct ServeSettings: Decodable, Equatable {
    public var zones: String?
    public var graph: String?
    public var speedProfile: String?
    public var footGraph: String?
    public var idProperty: String?
    public var nameProperty: String?
    public var overlapTolerance: Double?
    public var devices: String?
    public var dataDir: String?
    public var database: String?
    public var httpPort: Int?
    public var bind: String?
    public var ingestBind: String?
    public var ingestAllow: String?
    public var requireDeviceSecret: Bool?
    public var linePort: String?
    public var nmeaPort: String?
    public var osmandPort: String?
    public var teltonikaPort: String?
    public var gt06Port: String?
    public var staleAfter: Double?
    public var learnedSpeedsEvery: Double?
    public var idleTimeout: Double?
    public var loginTimeout: Double?
    public var httpTimeout: Double?
    public var maxConnections: Int?
    public var httpMaxConnections: Int?
    public var offerTimeout: Double?
    public var confirmationTimeout: Double?
    public var zoneDwell: Double?
    public var staleGrace: Double?
    public var missingClientWait: Double?
    public var sessionLifetime: Double?
    public var bcryptCost: Int?
    public var loginLimit: Int?
    public var registrationLimit: Int?
    public var historyMaxDays: Int?
    public var fixRetentionDays: Int?
    public var compactAfterHours: Int?
    public var maxReservations: Int?
    public var metricsBind: String?
    public var trustedProxy: String?

    enum CodingKeys: String, CodingKey {
        case zones, graph, speedProfile = "speed-profile", idProperty = "id-property", nameProperty = "name-property", overlapTolerance = "overlap-tolerance", devices, dataDir = "data-dir", database, httpPort = "http-port", bind
        case ingestBind = "ingest-bind", ingestAllow = "ingest-allow", requireDeviceSecret = "require-device-secret"
        case linePort = "line-port", nmeaPort = "nmea-port", osmandPort = "osmand-port"
        case teltonikaPort = "teltonika-port", gt06Port = "gt06-port", staleAfter = "stale-after"
        case idleTimeout = "idle-timeout", loginTimeout = "login-timeout", httpTimeout = "http-timeout"
        case maxConnections = "max-connections", httpMaxConnections = "http-max-connections"
        case offerTimeout = "offer-timeout", confirmationTimeout = "confirmation-timeout", zoneDwell = "zone-dwell"
        case staleGrace = "stale-grace", missingClientWait = "missing-client-wait"
        case sessionLifetime = "session-lifetime", bcryptCost = "bcrypt-cost", loginLimit = "login-limit"
        case registrationLimit = "registration-limit", historyMaxDays = "history-max-days"
        case fixRetentionDays = "fix-retention-days", compactAfterHours = "compact-after-hours"
        case maxReservations = "max-reservations", metricsBind = "metrics-bind", trustedProxy = "trusted-proxy"
        case learnedSpeedsEvery = "learned-speeds-every", footGraph = "foot-graph"
    }

    /// The settings that are text (paths, addresses, ports that may be "off"), by key.
    private static var texts: [(CodingKeys, WritableKeyPath<ServeSettings, String?>)] {
        [
            (.zones, \.zones), (.graph, \.graph), (.speedProfile, \.speedProfile), (.footGraph, \.footGraph), (.idProperty, \.idProperty), (.nameProperty, \.nameProperty), (.devices, \.devices), (.dataDir, \.dataDir), (.database, \.database), (.bind, \.bind),
            (.ingestBind, \.ingestBind), (.ingestAllow, \.ingestAllow), (.linePort, \.linePort), (.nmeaPort, \.nmeaPort), (.osmandPort, \.osmandPort),
            (.teltonikaPort, \.teltonikaPort), (.gt06Port, \.gt06Port), (.metricsBind, \.metricsBind), (.trustedProxy, \.trustedProxy),
        ]
    }

    /// The settings that are whole numbers, by key.
    private static var wholeNumbers: [(CodingKeys, WritableKeyPath<ServeSettings, Int?>)] {
        [(.httpPort, \.httpPort), (.maxConnections, \.maxConnections), (.httpMaxConnections, \.httpMaxConnections),
         (.bcryptCost, \.bcryptCost), (.loginLimit, \.loginLimit), (.registrationLimit, \.registrationLimit), (.historyMaxDays, \.historyMaxDays),
         (.fixRetentionDays, \.fixRetentionDays), (.compactAfterHours, \.compactAfterHours), (.maxReservations, \.maxReservations)]
    }

    /// The settings that are numbers (seconds, square metres), by key.
    private static var numbers: [(CodingKeys, WritableKeyPath<ServeSettings, Double?>)] {
        [(.overlapTolerance, \.overlapTolerance), (.staleAfter, \.staleAfter), (.idleTimeout, \.idleTimeout), (.loginTimeout, \.loginTimeout), (.httpTimeout, \.httpTimeout),
         (.offerTimeout, \.offerTimeout), (.confirmationTimeout, \.confirmationTimeout), (.zoneDwell, \.zoneDwell),
         (.staleGrace, \.staleGrace), (.missingClientWait, \.missingClientWait), (.sessionLifetime, \.sessionLifetime),
         (.learnedSpeedsEvery, \.learnedSpeedsEvery)]
    }

    /// The settings that are on or off, by key.
    private static var switches: [(CodingKeys, WritableKeyPath<ServeSettings, Bool?>)] {
        [(.requireDeviceSecret, \.requireDeviceSecret)]
    }

    /// No setting given: the flags' starting point, and the file's when there is none.
    public init() {}

    /// Reads a config file's object; a value may be a JSON number or a
    /// string (`"line-port": "off"`, `"idle-timeout": "900"`), a switch
    /// `true` or `false` (or those words as strings).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            guard container.contains(key) else { return nil }
            if let string = try? container.decode(String.self, forKey: key) { return string }
            if let number = try? container.decode(Double.self, forKey: key) {
                return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            }
            throw ValidationError("\"\(key.rawValue)\" must be a string or a number")
        }
        for (key, field) in Self.texts { self[keyPath: field] = try text(key) }
        for (key, field) in Self.wholeNumbers {
            self[keyPath: field] = try text(key).map { value in
                guard let number = Int(value) else { throw ValidationError("--\(key.rawValue) must be a whole number, not '\(value)'") }
                return number
            }
        }
        for (key, field) in Self.numbers {
            self[keyPath: field] = try text(key).map { value in
                guard let number = Double(value) else { throw ValidationError("--\(key.rawValue) must be a number, not '\(value)'") }
                return number
            }
        }
        for (key, field) in Self.switches where container.contains(key) {
            if let value = try? container.decode(Bool.self, forKey: key) {
                self[keyPath: field] = value
            } else if let word = try? container.decode(String.self, forKey: key), ["true", "false"].contains(word) {
                self[keyPath: field] = word == "true"
            } else {
                throw ValidationError("\"\(key.rawValue)\" must be true or false")
            }
        }
    }

    /// The settings of the JSON config file at `path`.
    public static func load(path: String) throws -> ServeSettings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the config file \(path)")
        }
        return try read(data, named: "config file \(path)")
    }

    /// The settings of a config file's bytes, as ``load(path:)`` reads them
    /// (the fuzz target feeds it bytes straight); errors are led by `name`.
    public static func read(_ data: Data, named name: String) throws -> ServeSettings {
        do {
            return try JSONDecoder().decode(ServeSettings.self, from: data)
        } catch let error as ValidationError {
            throw ValidationError("\(name): \(error.message)")
        } catch {
            throw ValidationError("\(name): expected a JSON object of flag names and values (\(error))")
        }
    }

    /// These settings where given, `base`'s elsewhere.
    public func overlaid(on base: ServeSettings) -> ServeSettings {
        var merged = base
        for (_, field) in Self.texts { merged[keyPath: field] = self[keyPath: field] ?? base[keyPath: field] }
        for (_, field) in Self.wholeNumbers { merged[keyPath: field] = self[keyPath: field] ?? base[keyPath: field] }
        for (_, field) in Self.numbers { merged[keyPath: field] = self[keyPath: field] ?? base[keyPath: field] }
        for (_, field) in Self.switches { merged[keyPath: field] = self[keyPath: field] ?? base[keyPath: field] }
        return merged
    }

    /// The service's configuration: defaults where nothing was given, every
    /// value checked (a number finite and in range, a port a port), and an
    /// error that names the flag and what it takes.
    public func configuration() throws -> ServiceConfiguration {
        guard let zones else { throw ValidationError("missing --zones FILE (or \"zones\" in the config file)") }
        guard let devices else { throw ValidationError("missing --devices FILE (or \"devices\" in the config file)") }
        guard let dataDir else { throw ValidationError("missing --data-dir DIR (or \"data-dir\" in the config file)") }
        guard let graph else {
            throw ValidationError(
                "missing --graph FILE (or \"graph\" in the config file): the road graph the dispatcher's ETAs come from; build one with `mytaxi graph build CITY.osm.pbf -o CITY.graph`")
        }
        var configuration = ServiceConfiguration(zonesPath: zones, graphPath: graph, devicesPath: devices, dataDirectory: dataDir)
        configuration.speedProfilePath = speedProfile
        configuration.footGraphPath = footGraph
        configuration.databaseURL = database
        try ZoneFileSettings.check(overlapTolerance: overlapTolerance)
        configuration.zoneFileOptions = ZoneFileSettings.options(
            idProperty: idProperty, nameProperty: nameProperty, overlapTolerance: overlapTolerance)
        configuration.bindHost = bind ?? configuration.bindHost
        configuration.ingestBindHost = ingestBind
        configuration.requireDeviceSecret = requireDeviceSecret ?? configuration.requireDeviceSecret
        if let ingestAllow {
            do {
                configuration.ingestAllowList = try IngestAllowList(parsing: ingestAllow)
            } catch {
                throw ValidationError("--ingest-allow takes CIDR blocks separated by commas (10.0.0.0/8,2001:db8::/32): \(error)")
            }
        }
        configuration.httpPort = try Self.port(httpPort ?? configuration.httpPort, flag: "http-port")
        configuration.staleAfterSeconds = try Self.seconds(staleAfter ?? configuration.staleAfterSeconds, flag: "stale-after")
        configuration.learnedSpeedsEverySeconds = try Self.seconds(
            learnedSpeedsEvery ?? configuration.learnedSpeedsEverySeconds, flag: "learned-speeds-every")
        configuration.idleTimeoutSeconds = try Self.seconds(idleTimeout ?? configuration.idleTimeoutSeconds, flag: "idle-timeout")
        configuration.loginTimeoutSeconds = try Self.seconds(
            loginTimeout ?? configuration.loginTimeoutSeconds, flag: "login-timeout")
        configuration.httpTimeoutSeconds = try Self.seconds(httpTimeout ?? configuration.httpTimeoutSeconds, flag: "http-timeout")
        configuration.maxIngestConnections = try Self.count(
            maxConnections ?? configuration.maxIngestConnections, flag: "max-connections")
        configuration.maxHTTPConnections = try Self.count(
            httpMaxConnections ?? configuration.maxHTTPConnections, flag: "http-max-connections")
        configuration.dispatchRules = try dispatchRules(defaults: configuration.dispatchRules)
        if let maxReservations {
            configuration.dispatchRules.maximumOpenReservations = try Self.count(maxReservations, flag: "max-reservations")
        }
        if let metricsBind { configuration.metricsAddress = try Self.hostAndPort(metricsBind, flag: "metrics-bind") }
        if let trustedProxy {
            do {
                configuration.trustedProxies = try TrustedProxies(parsing: trustedProxy)
            } catch {
                throw ValidationError("--trusted-proxy takes CIDR blocks separated by commas (10.0.0.5,192.0.2.0/24): \(error)")
            }
        }
        if let sessionLifetime {
            configuration.accountSettings.sessionLifetime = .milliseconds(Int64(try Self.seconds(sessionLifetime, flag: "session-lifetime") * 1000))
        }
        if let bcryptCost {
            guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4...31 (bcrypt's range), not \(bcryptCost)") }
            configuration.accountSettings.bcryptCost = UInt8(bcryptCost)
        }
        configuration.loginsPerAddressPerMinute = try Self.count(
            loginLimit ?? configuration.loginsPerAddressPerMinute, flag: "login-limit")
        configuration.registrationsPerAddressPerMinute = try Self.count(
            registrationLimit ?? configuration.registrationsPerAddressPerMinute, flag: "registration-limit")
        if let historyMaxDays {
            configuration.historyMaxWindow = TimeInterval(try Self.count(historyMaxDays, flag: "history-max-days")) * 86_400
        }
        if let fixRetentionDays {
            guard (0...36_500).contains(fixRetentionDays) else {
                throw ValidationError("--fix-retention-days must be 0 (keep every fix) or a number of days up to 36500, not \(fixRetentionDays)")
            }
            configuration.fixRetention = fixRetentionDays == 0 ? nil : TimeInterval(fixRetentionDays) * 86_400
        }
        if let compactAfterHours {
            guard (0...8_760).contains(compactAfterHours) else {
                throw ValidationError("--compact-after-hours must be 0 (never compact) or a number of hours up to 8760, not \(compactAfterHours)")
            }
            configuration.compactAfter = compactAfterHours == 0 ? nil : TimeInterval(compactAfterHours) * 3_600
        }
        let ports: [(flag: String, value: String?, tcp: WireProtocol?, udp: WireProtocol?)] = [
            ("line-port", linePort, .line, .line), ("nmea-port", nmeaPort, .nmea, nil),
            ("osmand-port", osmandPort, .osmand, nil), ("teltonika-port", teltonikaPort, .teltonika, .teltonikaUDP),
            ("gt06-port", gt06Port, .gt06, nil),
        ]
        for port in ports {
            guard let text = port.value else { continue }
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

    /// The dispatch engine's durations (SPEC D2–D6), each checked as ``seconds(_:flag:)``.
    private func dispatchRules(defaults: DispatchRules) throws -> DispatchRules {
        func duration(_ value: Double?, _ fallback: Duration, flag: String) throws -> Duration {
            guard let value else { return fallback }
            return .milliseconds(Int64(try Self.seconds(value, flag: flag) * 1000))
        }
        return DispatchRules(
            offerTimeout: try duration(offerTimeout, defaults.offerTimeout, flag: "offer-timeout"),
            confirmationTimeout: try duration(confirmationTimeout, defaults.confirmationTimeout, flag: "confirmation-timeout"),
            zoneDwell: try duration(zoneDwell, defaults.zoneDwell, flag: "zone-dwell"),
            staleGrace: try duration(staleGrace, defaults.staleGrace, flag: "stale-grace"),
            missingClientWait: try duration(missingClientWait, defaults.missingClientWait, flag: "missing-client-wait"))
    }

    /// `HOST:PORT` (an IPv6 host in brackets: `[::1]:9464`), the port 0...65535.
    static func hostAndPort(_ text: String, flag: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else {
            throw ValidationError("--\(flag) must be HOST:PORT, e.g. 127.0.0.1:9464, not '\(text)'")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else { throw ValidationError("--\(flag) must name a host before the port, not '\(text)'") }
        return (host, port)
    }

    /// A duration in seconds: finite, at least a millisecond and at most a
    /// week (a NaN would pass every comparison and trap where it becomes a
    /// timer; the timers count whole milliseconds, so less would be a
    /// deadline of zero that closes every connection as it opens).
    static func seconds(_ value: Double, flag: String) throws -> Double {
        guard value.isFinite, value >= 0.001, value <= 7 * 24 * 3600 else {
            throw ValidationError(
                "--\(flag) must be a number of seconds from 0.001 to 604800 (a week), not '\(value)'")
        }
        return value
    }

    /// A connection count: 1 or more.
    static func count(_ value: Int, flag: String) throws -> Int {
        guard value >= 1, value <= 10_000_000 else {
            throw ValidationError("--\(flag) must be a whole number from 1 to 10000000, not '\(value)'")
        }
        return value
    }

    /// A TCP port (0: the OS picks one).
    static func port(_ value: Int, flag: String) throws -> Int {
        guard (0...65535).contains(value) else {
            throw ValidationError("--\(flag) must be a port number 0...65535, not '\(value)'")
        }
        return value
    }
}
