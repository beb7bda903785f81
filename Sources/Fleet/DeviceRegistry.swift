import FixRecords
import Foundation

/// Which tracking device belongs to which taxi (SPEC I4): only registered
/// devices are accepted, and each belongs to exactly one taxi.
///
/// Read from a devices file: CSV lines `device_id,taxi_id[,secret[,seats]]`
/// (the device id is the IMEI for GT06 and Teltonika terminals), an
/// optional header line naming those columns, blank lines and `#` comments
/// ignored. A taxi may carry several devices (a terminal and a phone); a
/// device may not appear twice. The secret is optional per device (an
/// empty third field is none); a device that has one must present it (see
/// ``DeviceSecret``). No error names a secret. `seats` is how many
/// passengers the taxi carries (``defaultSeats`` when left out); the lines
/// of one taxi's devices may not give it two numbers.
public struct DeviceRegistry: Sendable {
    /// The seats of a taxi whose lines give none: a saloon car's four.
    public static let defaultSeats = 4
    /// The most seats a line may give: a minibus's.
    public static let maximumSeats = 20

    private let devices: [String: RegisteredDevice]
    /// The seats each taxi whose lines give a number has.
    private let seatsOfTaxi: [TaxiID: Int]
    /// Every registered taxi, once each (kept, not derived per call: the API
    /// asks when an administrator binds a driver, under the lock ingest takes).
    public let taxis: Set<TaxiID>
    /// How many devices have a secret.
    public let secretCount: Int
    /// The most seats any taxi of the registry has: a party larger than
    /// this fits in none (nil for an empty registry).
    public let largestSeats: Int?

    /// An empty registry refuses every device.
    public init() {
        devices = [:]
        seatsOfTaxi = [:]
        taxis = []
        secretCount = 0
        largestSeats = nil
    }

    /// Reads a devices file's text.
    /// - Throws: ``DeviceRegistryError/invalid(_:)`` listing every bad line by number.
    public init(csv: String) throws(DeviceRegistryError) {
        var found: [String: RegisteredDevice] = [:]
        var firstLine: [String: Int] = [:]
        var seats: [TaxiID: (count: Int, line: Int)] = [:]
        var problems: [String] = []
        let expected = "expected `device_id,taxi_id`, `device_id,taxi_id,secret` or `device_id,taxi_id,secret,seats`"
        let headers = [["device_id", "taxi_id"], ["device_id", "taxi_id", "secret"], ["device_id", "taxi_id", "secret", "seats"]]
        for (offset, rawLine) in csv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let header = fields.map { $0.lowercased() }
            if number == 1 && headers.contains(header) { continue }
            guard (2...4).contains(fields.count), !fields[0].isEmpty, !fields[1].isEmpty else {
                // Only the first two fields are shown: a third may be a secret.
                let shown = "`\(fields.prefix(2).joined(separator: ","))`"
                problems.append("line \(number): \(expected), found " + (fields.count > 4 ? "\(fields.count) fields starting \(shown)" : shown))
                continue
            }
            let taxi = TaxiID(fields[1])
            if fields.count == 4, !fields[3].isEmpty {
                guard let count = Int(fields[3]), (1...Self.maximumSeats).contains(count) else {
                    // The field is not shown: a secret with a comma in it would spill into it.
                    problems.append("line \(number): the seats of taxi \(taxi) (the fourth field) must be a whole number from 1 to \(Self.maximumSeats)")
                    continue
                }
                if let earlier = seats[taxi], earlier.count != count {
                    problems.append("line \(number): taxi \(taxi) has \(count) seats here but \(earlier.count) on line \(earlier.line)")
                    continue
                }
                seats[taxi] = (count, number)
            }
            var secret: DeviceSecret?
            if fields.count >= 3, !fields[2].isEmpty {
                guard let registered = DeviceSecret(registered: fields[2]) else {
                    problems.append(
                        "line \(number): the secret of device \(fields[0]) must be \(DeviceSecret.minLength) to \(DeviceSecret.maxLength) printable ASCII characters without spaces or commas")
                    continue
                }
                secret = registered
            }
            if let earlier = firstLine[fields[0]] {
                problems.append("line \(number): device \(fields[0]) is already registered on line \(earlier)")
                continue
            }
            firstLine[fields[0]] = number
            found[fields[0]] = RegisteredDevice(taxi: taxi, secret: secret)
        }
        if !problems.isEmpty { throw .invalid(problems) }
        devices = found
        seatsOfTaxi = seats.mapValues(\.count)
        taxis = Set(found.values.map(\.taxi))
        secretCount = found.values.count { $0.secret != nil }
        largestSeats = taxis.isEmpty ? nil : taxis.map { seats[$0]?.count ?? Self.defaultSeats }.max()
    }

    /// A registry of `devices`, each taxi carrying `seatsOfTaxi` passengers
    /// (``defaultSeats`` when it has no number): the devices file with what
    /// administrators changed laid over it.
    public init(devices: [String: RegisteredDevice], seatsOfTaxi: [TaxiID: Int]) {
        self.devices = devices
        let taxis = Set(devices.values.map(\.taxi))
        self.seatsOfTaxi = seatsOfTaxi.filter { taxis.contains($0.key) }
        self.taxis = taxis
        secretCount = devices.values.count { $0.secret != nil }
        largestSeats = taxis.isEmpty ? nil : taxis.map { seatsOfTaxi[$0] ?? Self.defaultSeats }.max()
    }

    /// Every registered device by id, with its taxi and secret.
    public var allDevices: [String: RegisteredDevice] { devices }

    /// The seats of every taxi a line gives a number for.
    public var givenSeats: [TaxiID: Int] { seatsOfTaxi }

    /// Reads the devices file at `path`.
    public static func load(path: String) throws(DeviceRegistryError) -> DeviceRegistry {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try DeviceRegistry(csv: text)
    }

    /// The taxi a device belongs to, or nil when the device is not registered.
    public func taxi(forDevice deviceId: String) -> TaxiID? {
        devices[deviceId]?.taxi
    }

    /// The registered device, with its taxi and secret; nil when not registered.
    public func device(_ deviceId: String) -> RegisteredDevice? {
        devices[deviceId]
    }

    /// How many devices are registered.
    public var count: Int { devices.count }

    /// How many passengers `taxi` carries.
    public func seats(of taxi: TaxiID) -> Int {
        seatsOfTaxi[taxi] ?? Self.defaultSeats
    }
}

/// Why a devices file was refused.
public enum DeviceRegistryError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid([String])

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read devices file \(path): \(reason)"
        case .invalid(let problems): "devices file rejected:\n" + problems.joined(separator: "\n")
        }
    }
}
