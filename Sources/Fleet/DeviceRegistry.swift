import FixRecords
import Foundation

/// Which tracking device belongs to which taxi (SPEC I4): only registered
/// devices are accepted, and each belongs to exactly one taxi.
///
/// Read from a devices file: CSV lines `device_id,taxi_id` (the device id is
/// the IMEI for GT06 and Teltonika terminals), an optional header line
/// `device_id,taxi_id`, blank lines and `#` comments ignored. A taxi may
/// carry several devices (a terminal and a phone); a device may not appear twice.
public struct DeviceRegistry: Sendable {
    private let taxiByDevice: [String: TaxiID]
    /// Every registered taxi, once each (kept, not derived per call: the API
    /// asks when an administrator binds a driver, under the lock ingest takes).
    public let taxis: Set<TaxiID>

    /// An empty registry refuses every device.
    public init() {
        taxiByDevice = [:]
        taxis = []
    }

    /// Reads a devices file's text.
    /// - Throws: ``DeviceRegistryError/invalid(_:)`` listing every bad line by number.
    public init(csv: String) throws(DeviceRegistryError) {
        var found: [String: TaxiID] = [:]
        var firstLine: [String: Int] = [:]
        var problems: [String] = []
        for (offset, rawLine) in csv.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if number == 1 && fields.map({ $0.lowercased() }) == ["device_id", "taxi_id"] { continue }
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                problems.append("line \(number): expected `device_id,taxi_id`, found `\(line)`")
                continue
            }
            if let earlier = firstLine[fields[0]] {
                problems.append("line \(number): device \(fields[0]) is already registered on line \(earlier)")
                continue
            }
            firstLine[fields[0]] = number
            found[fields[0]] = TaxiID(fields[1])
        }
        if !problems.isEmpty { throw .invalid(problems) }
        taxiByDevice = found
        taxis = Set(found.values)
    }

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
        taxiByDevice[deviceId]
    }

    /// How many devices are registered.
    public var count: Int { taxiByDevice.count }
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
