import Fleet
import Foundation
import GeoKit
import Synchronization
import Zones

/// Everything between a decoded frame and the archive (SPEC I3, I4, Z2):
/// device registry, validation, zone assignment, counting, and handing the
/// accepted fixes to the durable sink. Shared by every listener.
public final class IngestPipeline: Sendable {
    private let devices: Mutex<DeviceRegistry>
    private let zones: Mutex<ZoneIndex?>
    public let validator: FixValidator
    public let sink: any FixSink
    public let metrics: IngestMetrics
    private let clock: @Sendable () -> Date

    public init(
        devices: DeviceRegistry, zones: ZoneIndex?, validator: FixValidator, sink: any FixSink,
        metrics: IngestMetrics, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.devices = Mutex(devices)
        self.zones = Mutex(zones)
        self.validator = validator
        self.sink = sink
        self.metrics = metrics
        self.clock = clock
    }

    /// Replaces the devices file (SIGHUP reload); connections keep running.
    public func reloadDevices(_ registry: DeviceRegistry) {
        devices.withLock { $0 = registry }
    }

    /// Replaces the zone set (a planner published a new one).
    public func replaceZones(_ index: ZoneIndex) {
        zones.withLock { $0 = index }
    }

    /// The taxi a device belongs to, or nil when it is not registered.
    public func taxi(forDevice deviceId: String) -> TaxiID? {
        devices.withLock { $0.taxi(forDevice: deviceId) }
    }

    /// Validates `fixes` received over `wireProtocol`, counts every outcome,
    /// and returns the accepted ones with their taxi and zone.
    public func accept(_ fixes: [DeviceFix], via wireProtocol: WireProtocol) -> [AcceptedFix] {
        guard !fixes.isEmpty else { return [] }
        let now = clock()
        metrics.fixesReceived(wireProtocol, count: fixes.count)
        let registry = devices.withLock { $0 }
        let index = zones.withLock { $0 }
        var accepted: [AcceptedFix] = []
        accepted.reserveCapacity(fixes.count)
        for fix in fixes {
            if case .success(let fix) = judge(fix, via: wireProtocol, now: now, registry: registry, zones: index) {
                accepted.append(fix)
            }
        }
        metrics.fixesAccepted(wireProtocol, count: accepted.count)
        return accepted
    }

    /// Validates one fix, counting the outcome; the accepted fix or why not.
    public func accept(_ fix: DeviceFix, via wireProtocol: WireProtocol) -> Result<AcceptedFix, RejectReason> {
        metrics.fixesReceived(wireProtocol, count: 1)
        let result = judge(
            fix, via: wireProtocol, now: clock(), registry: devices.withLock { $0 }, zones: zones.withLock { $0 })
        if case .success = result { metrics.fixesAccepted(wireProtocol, count: 1) }
        return result
    }

    private func judge(
        _ fix: DeviceFix, via wireProtocol: WireProtocol, now: Date, registry: DeviceRegistry, zones index: ZoneIndex?
    ) -> Result<AcceptedFix, RejectReason> {
        guard let taxi = registry.taxi(forDevice: fix.deviceId) else {
            metrics.fixRejected(wireProtocol, .unknownDevice)
            return .failure(.unknownDevice)
        }
        switch validator.check(fix, now: now) {
        case .reject(let reason):
            metrics.fixRejected(wireProtocol, reason)
            return .failure(reason)
        case .accept(let outOfOrder):
            if outOfOrder { metrics.fixOutOfOrder(wireProtocol) }
            let coordinate = Coordinate(longitude: fix.longitude, latitude: fix.latitude)
            return .success(
                AcceptedFix(
                    taxiId: taxi, deviceId: fix.deviceId, wireProtocol: wireProtocol, time: fix.time,
                    coordinate: coordinate, speedKmh: fix.speedKmh, heading: fix.course,
                    zoneId: index?.zone(at: coordinate)?.id, receivedAt: now))
        }
    }

    /// The server clock the pipeline judges fixes by.
    public var now: Date { clock() }
}
