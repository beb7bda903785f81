import Accounts
import API
import ArgumentParser
import DispatchCore
import FixRecords
import Foundation
import Ingest
import Mail
import MytaxiServer

/// Every setting of `mytaxi serve`, declared once, in groups by concern:
/// the flags are parsed into it, and so is the `--config` file, whose keys
/// are the long flag names (``ConfigFileArguments``). Each group checks its
/// own values and writes them into the service's configuration
/// (``configuration()``), where the defaults are.
public struct ServeOptions: ParsableArguments {
    public init() {}

    @OptionGroup(title: "Files") public var files: ServeFiles

    @OptionGroup(title: "Zone file") public var zoneFile: ZoneFileArguments

    @OptionGroup(title: "Storage") public var storage: ServeStorage

    @OptionGroup(title: "Listeners") public var listeners: ServeListeners

    @OptionGroup(title: "Connections") public var connections: ServeConnections

    @OptionGroup(title: "Dispatch") public var dispatch: ServeDispatch

    @OptionGroup(title: "Several nodes") public var nodes: ServeNodes

    @OptionGroup(title: "Accounts and API limits") public var accounts: ServeAccounts

    @OptionGroup(title: "E-mail") public var mail: ServeMail

    @OptionGroup(title: "Clock (simulations)") public var clock: ServeClock

    @OptionGroup(title: "Output") public var output: ServeOutput

    /// The options `given` on the command line over those of the config
    /// file it names over the environment's database: the file's arguments
    /// are parsed first and the flags after them, so a flag given in both
    /// places takes the command line's value.
    /// - Throws: `ValidationError` naming the file and the setting that is wrong.
    public static func resolved(given: [String]) throws -> ServeOptions {
        let onCommandLine = try parse(given)
        var options = onCommandLine
        if let path = onCommandLine.files.config {
            let fromFile = try ConfigFileArguments.load(path: path)
            do {
                _ = try parse(fromFile)
            } catch {
                throw ValidationError("config file \(path): \(message(for: error))")
            }
            options = try parse(fromFile + given)
        }
        if onCommandLine.storage.database == nil, let environment = DatabaseEnvironment.url {
            options.storage.database = environment
        }
        return options
    }

    /// The service's configuration: defaults where nothing was given, every
    /// value checked (a number finite and in range, a port a port), and an
    /// error that names the flag and what it takes.
    public func configuration() throws -> ServiceConfiguration {
        var configuration = try files.configuration()
        try zoneFile.validate()
        configuration.zoneFileOptions = zoneFile.options
        try storage.apply(to: &configuration)
        try listeners.apply(to: &configuration)
        try connections.apply(to: &configuration)
        try dispatch.apply(to: &configuration)
        try nodes.apply(to: &configuration)
        try accounts.apply(to: &configuration)
        try mail.apply(to: &configuration)
        try clock.apply(to: &configuration)
        return configuration
    }
}

extension ServeFiles {
    /// A configuration on these files; names the one that is missing.
    func configuration() throws -> ServiceConfiguration {
        guard let zones else { throw ValidationError("missing --zones FILE (or \"zones\" in the config file)") }
        guard let devices else { throw ValidationError("missing --devices FILE (or \"devices\" in the config file)") }
        guard let graph else {
            throw ValidationError(
                "missing --graph FILE (or \"graph\" in the config file): the road graph the dispatcher's ETAs come from; build one with `mytaxi graph build CITY.osm.pbf -o CITY.graph`")
        }
        var configuration = ServiceConfiguration(zonesPath: zones, graphPath: graph, devicesPath: devices)
        configuration.speedProfilePath = speedProfile
        configuration.footGraphPath = footGraph
        if let webRoot {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: webRoot, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--web-root \(webRoot) is not a folder: name the folder that holds your edition of the pages' files")
            }
            configuration.webRoot = webRoot
        }
        return configuration
    }
}

extension ServeStorage {
    func apply(to configuration: inout ServiceConfiguration) throws {
        guard dataDir != nil || database != nil else {
            throw ValidationError(
                "missing --data-dir DIR (or \"data-dir\" in the config file) for the embedded SQLite stores, or --database URL (or $\(DatabaseEnvironment.variable)) for PostgreSQL")
        }
        configuration.dataDirectory = dataDir
        configuration.databaseURL = database
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
    }
}

extension ServeListeners {
    func apply(to configuration: inout ServiceConfiguration) throws {
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
        configuration.httpPort = try SettingChecks.port(httpPort ?? configuration.httpPort, flag: "http-port")
        if let metricsBind { configuration.metricsAddress = try SettingChecks.hostAndPort(metricsBind, flag: "metrics-bind") }
        if let trustedProxy {
            do {
                configuration.trustedProxies = try TrustedProxies(parsing: trustedProxy)
            } catch {
                throw ValidationError("--trusted-proxy takes CIDR blocks separated by commas (10.0.0.5,192.0.2.0/24): \(error)")
            }
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
    }
}

extension ServeConnections {
    func apply(to configuration: inout ServiceConfiguration) throws {
        configuration.idleTimeoutSeconds = try SettingChecks.seconds(idleTimeout ?? configuration.idleTimeoutSeconds, flag: "idle-timeout")
        configuration.loginTimeoutSeconds = try SettingChecks.seconds(loginTimeout ?? configuration.loginTimeoutSeconds, flag: "login-timeout")
        configuration.httpTimeoutSeconds = try SettingChecks.seconds(httpTimeout ?? configuration.httpTimeoutSeconds, flag: "http-timeout")
        configuration.maxIngestConnections = try SettingChecks.count(maxConnections ?? configuration.maxIngestConnections, flag: "max-connections")
        configuration.maxHTTPConnections = try SettingChecks.count(
            httpMaxConnections ?? configuration.maxHTTPConnections, flag: "http-max-connections")
        if let drainSeconds {
            guard drainSeconds.isFinite, (0...3_600).contains(drainSeconds) else {
                throw ValidationError("--drain-seconds must be a number of seconds from 0 to 3600, not '\(drainSeconds)'")
            }
            configuration.drainSeconds = drainSeconds
        }
    }
}

extension ServeNodes {
    func apply(to configuration: inout ServiceConfiguration) throws {
        guard let nodeId else {
            if advertise != nil || dispatchLeaseSeconds != nil {
                throw ValidationError("--advertise and --dispatch-lease-seconds are for a node of several: give --node-id NAME too")
            }
            return
        }
        guard !nodeId.isEmpty, nodeId.count <= 64, nodeId.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw ValidationError("--node-id must be 1 to 64 letters, digits, '-', '_' or '.', not '\(nodeId)'")
        }
        guard configuration.databaseURL != nil else {
            throw ValidationError(
                "--node-id needs --database URL (or $\(DatabaseEnvironment.variable)): the nodes of one service share one PostgreSQL database")
        }
        guard let advertise else {
            throw ValidationError("--node-id needs --advertise http://HOST:PORT: where the other nodes reach this node's API")
        }
        guard let url = URL(string: advertise), url.scheme == "http" || url.scheme == "https", url.host?.isEmpty == false else {
            throw ValidationError("--advertise must be an http:// or https:// URL with a host, e.g. http://10.0.0.5:8080, not '\(advertise)'")
        }
        var node = ClusterNode(name: nodeId, address: advertise)
        if let dispatchLeaseSeconds {
            guard dispatchLeaseSeconds.isFinite, (2...300).contains(dispatchLeaseSeconds) else {
                throw ValidationError("--dispatch-lease-seconds must be a number of seconds from 2 to 300, not '\(dispatchLeaseSeconds)'")
            }
            node.leaseDuration = .milliseconds(Int64(dispatchLeaseSeconds * 1000))
        }
        configuration.node = node
    }
}

extension ServeDispatch {
    func apply(to configuration: inout ServiceConfiguration) throws {
        configuration.staleAfterSeconds = try SettingChecks.seconds(staleAfter ?? configuration.staleAfterSeconds, flag: "stale-after")
        configuration.learnedSpeedsEverySeconds = try SettingChecks.seconds(
            learnedSpeedsEvery ?? configuration.learnedSpeedsEverySeconds, flag: "learned-speeds-every")
        let defaults = configuration.dispatchRules
        func duration(_ value: Double?, _ fallback: Duration, flag: String) throws -> Duration {
            guard let value else { return fallback }
            return .milliseconds(Int64(try SettingChecks.seconds(value, flag: flag) * 1000))
        }
        configuration.dispatchRules = DispatchRules(
            offerTimeout: try duration(offerTimeout, defaults.offerTimeout, flag: "offer-timeout"),
            confirmationTimeout: try duration(confirmationTimeout, defaults.confirmationTimeout, flag: "confirmation-timeout"),
            zoneDwell: try duration(zoneDwell, defaults.zoneDwell, flag: "zone-dwell"),
            staleGrace: try duration(staleGrace, defaults.staleGrace, flag: "stale-grace"),
            missingClientWait: try duration(missingClientWait, defaults.missingClientWait, flag: "missing-client-wait"))
        if let maxReservations {
            configuration.dispatchRules.maximumOpenReservations = try SettingChecks.count(maxReservations, flag: "max-reservations")
        }
    }
}

extension ServeClock {
    func apply(to configuration: inout ServiceConfiguration) throws {
        if let clockRate {
            guard clockRate.isFinite, (1...1000).contains(clockRate) else {
                throw ValidationError("--clock-rate must be a number from 1 to 1000 (service seconds per real second), not '\(clockRate)'")
            }
            configuration.clockRate = clockRate
        }
        if let clockStart {
            guard let start = FixTime.date(iso8601: clockStart) else {
                throw ValidationError("--clock-start must be an ISO 8601 time such as 2026-12-01T08:00:00-05:00, not '\(clockStart)'")
            }
            configuration.clockStart = start
        }
        if let clockOrigin {
            guard let origin = FixTime.date(iso8601: clockOrigin) else {
                throw ValidationError("--clock-origin must be an ISO 8601 time such as 2026-12-01T08:00:00Z, not '\(clockOrigin)'")
            }
            configuration.clockOrigin = origin
        }
    }
}

extension ServeMail {
    func apply(to configuration: inout ServiceConfiguration) throws {
        guard let smtp else {
            if smtpFrom != nil || smtpPasswordFile != nil || smtpCAFile != nil {
                throw ValidationError("--smtp-from, --smtp-password-file and --smtp-ca-file need --smtp URL")
            }
            return
        }
        guard let from = smtpFrom else { throw ValidationError("--smtp needs --smtp-from ADDRESS, the sender of the service's e-mails") }
        var password = ProcessInfo.processInfo.environment["MYTAXI_SMTP_PASSWORD"]
        if let smtpPasswordFile {
            do {
                password = try String(contentsOfFile: smtpPasswordFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("--smtp-password-file \(smtpPasswordFile) cannot be read: \((error as NSError).localizedDescription)")
            }
        }
        do {
            configuration.smtpRelay = try SMTPRelay(url: smtp, from: from, password: password, trustedCertificatesFile: smtpCAFile)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

extension ServeAccounts {
    func apply(to configuration: inout ServiceConfiguration) throws {
        if let sessionLifetime {
            configuration.accountSettings.sessionLifetime = .milliseconds(
                Int64(try SettingChecks.seconds(sessionLifetime, flag: "session-lifetime") * 1000))
        }
        if let confirmationLifetime {
            configuration.accountSettings.confirmationLifetime = .milliseconds(
                Int64(try SettingChecks.seconds(confirmationLifetime, flag: "confirmation-lifetime") * 1000))
        }
        if let bcryptCost {
            guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4...31 (bcrypt's range), not \(bcryptCost)") }
            configuration.accountSettings.bcryptCost = UInt8(bcryptCost)
        }
        configuration.loginsPerAddressPerMinute = try SettingChecks.count(loginLimit ?? configuration.loginsPerAddressPerMinute, flag: "login-limit")
        configuration.registrationsPerAddressPerMinute = try SettingChecks.count(
            registrationLimit ?? configuration.registrationsPerAddressPerMinute, flag: "registration-limit")
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--public-url must be an http or https address such as https://taxi.example.com, not '\(publicURL)'")
            }
            let base = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
            configuration.accountSettings.confirmationLinkPrefix = base + "/app#confirm="
            configuration.accountSettings.passwordResetLinkPrefix = base + "/app#reset="
        }
        if let historyMaxDays {
            configuration.historyMaxWindow = TimeInterval(try SettingChecks.count(historyMaxDays, flag: "history-max-days")) * 86_400
        }
    }
}
