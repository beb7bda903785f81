import FixRecords
import Fleet
import ServiceClock
import Foundation
import GeoKit
import Logging
import Synchronization
import Zones

/// Everything between a decoded frame and the archive (SPEC I3, I4, Z2):
/// device registry and secrets, validation, zone assignment, counting, and
/// handing the accepted fixes to the durable sink. Shared by every listener.
///
/// Listeners submit accepted fixes here, not to the sink: the pipeline tells
/// the validator about them only once they are durable, and counts what is
/// waiting for the archive, so that listeners stop taking more (TCP stops
/// reading, UDP drops datagrams) while the archive is behind.
public final class IngestPipeline: FixSink {
    private let devices: Mutex<DeviceRegistry>
    /// The zone set fixes are assigned with: the one the API answers with
    /// too, swapped whole when a planner activates another (nil: no zones).
    private let zones: ActiveZones?
    public let validator: FixValidator
    /// Where fixes are made durable (the group committer in `mytaxi serve`).
    public let sink: any FixSink
    public let metrics: IngestMetrics
    /// Fixes handed to the sink and not yet durable (or failed) beyond which
    /// ``isBacklogged`` is true.
    public let maxQueuedFixes: Int
    private let queuedFixes = Atomic<Int>(0)
    private let commitFailing = Atomic<Bool>(false)
    private let lastCommitError = Mutex<String?>(nil)
    /// Hears when commits start failing and when they store again.
    private let logger: Logger
    /// The server clock fixes are judged by.
    public let clock: any ServiceClock
    /// Which devices must present their secret, over which protocols.
    public let secretPolicy: DeviceSecretPolicy

    /// Fixes queued for the archive unless told otherwise: about a second of
    /// the design load (100,000 fixes/s), a few tens of megabytes.
    public static let defaultMaxQueuedFixes = 100_000

    public init(
        devices: DeviceRegistry, zones: ActiveZones?, validator: FixValidator, sink: any FixSink,
        metrics: IngestMetrics, maxQueuedFixes: Int = IngestPipeline.defaultMaxQueuedFixes,
        clock: any ServiceClock = SystemClock(), secretPolicy: DeviceSecretPolicy = DeviceSecretPolicy(),
        logger: Logger = Logger(label: "mytaxi.ingest")
    ) {
        self.logger = logger
        self.devices = Mutex(devices)
        self.zones = zones
        self.validator = validator
        self.sink = sink
        self.metrics = metrics
        self.maxQueuedFixes = maxQueuedFixes
        self.clock = clock
        self.secretPolicy = secretPolicy
    }

    /// Hands accepted fixes to the sink. Once they are durable the validator
    /// counts them as seen, and only then does `completion` hear of it, so
    /// that a resend after the ACK is a duplicate and a resend after a
    /// failed commit is stored.
    public func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let queued = queuedFixes.add(fixes.count, ordering: .relaxed).newValue
        metrics.archiveQueue(fixes: queued)
        sink.submit(fixes) { [self] result in
            switch result {
            case .success:
                validator.recordCommitted(fixes)
                if commitFailing.load(ordering: .relaxed) { noteCommit(error: nil) }
            case .failure(let error):
                noteCommit(error: error)
            }
            let queued = queuedFixes.subtract(fixes.count, ordering: .relaxed).newValue
            metrics.archiveQueue(fixes: queued)
            completion(result)
        }
    }

    /// Why the archive's last commit failed, while commits fail (nil once
    /// one succeeds): nothing is acknowledged meanwhile, so `/healthz` says it.
    public var commitFailure: String? {
        lastCommitError.withLock { $0 }
    }

    /// Forgets the last commit's failure when the store has answered since
    /// (a probe of the database): `/healthz` then says how the store is now,
    /// not what the last commit saw, even while no fix comes to find out (a
    /// balancer sends no terminal to a node it holds unhealthy). A commit
    /// that fails again says so again. The prober logs the store's return.
    public func storeAnsweredSinceLastCommit() {
        guard commitFailing.load(ordering: .relaxed) else { return }
        lastCommitError.withLock { $0 = nil }
        commitFailing.store(false, ordering: .relaxed)
    }

    /// Keeps the commits' outcome for ``commitFailure``, and logs each
    /// change once: the first failure with its error, the first success after.
    private func noteCommit(error: (any Error)?) {
        let text = error.map { "the archive cannot store fixes: \($0)" }
        let previous = lastCommitError.withLock { last in
            defer { last = text }
            return last
        }
        commitFailing.store(error != nil, ordering: .relaxed)
        if let text, previous == nil {
            if (error as? any SinkClosingError)?.isSinkClosing == true {
                logger.info("\(text): fixes that arrive while the service stops are not acknowledged")
            } else {
                logger.error("\(text); no fix is acknowledged until it can")
            }
        } else if text == nil, previous != nil {
            logger.info("the archive stores fixes again")
        }
    }

    /// True while more than ``maxQueuedFixes`` fixes wait for the archive
    /// (a slow disk, a store that is down): listeners take no more until it
    /// catches up.
    public var isBacklogged: Bool {
        queuedFixes.load(ordering: .relaxed) > maxQueuedFixes
    }

    /// Fixes handed to the archive and not yet durable.
    public var queuedFixCount: Int {
        queuedFixes.load(ordering: .relaxed)
    }

    /// True when a device of the devices file reports for `taxi`: a driver
    /// account can only be bound to such a taxi (SPEC A2, A4).
    public func hasDevice(for taxi: TaxiID) -> Bool {
        devices.withLock { $0.taxis.contains(taxi) }
    }

    /// How many passengers `taxi` carries, as the devices file says.
    public func seats(of taxi: TaxiID) -> Int {
        devices.withLock { $0.seats(of: taxi) }
    }

    /// The most seats any taxi of the devices file has; nil when it has none.
    public var largestSeats: Int? {
        devices.withLock { $0.largestSeats }
    }

    /// Replaces the devices file (SIGHUP reload); connections keep running.
    public func reloadDevices(_ registry: DeviceRegistry) {
        devices.withLock { $0 = registry }
    }

    /// The taxi a device belongs to, or nil when it is not registered.
    public func taxi(forDevice deviceId: String) -> TaxiID? {
        devices.withLock { $0.taxi(forDevice: deviceId) }
    }

    /// Why `deviceId` may not report over `wireProtocol` with `credential`
    /// (not registered, its secret missing or wrong); nil when it may.
    /// Counts nothing: for a listener deciding whether a connection is
    /// identified or a datagram deserves an answer.
    public func refusal(ofDevice deviceId: String, credential: DeviceCredential?, via wireProtocol: WireProtocol) -> RejectReason? {
        guard let device = devices.withLock({ $0.device(deviceId) }) else { return .unknownDevice }
        return secretPolicy.refusal(for: device, presented: credential?.secret(for: deviceId), via: wireProtocol)
    }

    /// Checks a login (GT06, Teltonika, an NMEA identifier line, a line
    /// protocol `LOGIN`): nil when `deviceId` may report over this
    /// connection or datagram, else why not, counted in
    /// `mytaxi_fixes_rejected_total` by reason.
    public func checkLogin(ofDevice deviceId: String, credential: DeviceCredential?, via wireProtocol: WireProtocol) -> RejectReason? {
        guard let reason = refusal(ofDevice: deviceId, credential: credential, via: wireProtocol) else { return nil }
        metrics.fixRejected(wireProtocol, reason)
        return reason
    }

    /// Validates `fixes` received over `wireProtocol`, counts every outcome,
    /// and returns the accepted ones with their taxi and zone.
    ///
    /// - Parameters:
    ///   - boundDevice: The one device the TCP connection speaks for; a
    ///     fix of another device is refused (`device_mismatch`). Nil for
    ///     datagrams, which are not bound.
    ///   - credential: The secret presented on the connection or in the
    ///     datagram, which vouches for its own device's fixes only.
    public func accept(
        _ fixes: [DeviceFix], via wireProtocol: WireProtocol, boundDevice: String? = nil, credential: DeviceCredential? = nil
    ) -> [AcceptedFix] {
        guard !fixes.isEmpty else { return [] }
        let now = clock.now
        metrics.fixesReceived(wireProtocol, count: fixes.count)
        let registry = devices.withLock { $0 }
        let index = zones?.current
        var accepted: [AcceptedFix] = []
        accepted.reserveCapacity(fixes.count)
        for fix in fixes {
            if case .success(let fix) = judge(
                fix, via: wireProtocol, boundDevice: boundDevice, credential: credential, now: now, registry: registry,
                zones: index)
            {
                accepted.append(fix)
            }
        }
        metrics.fixesAccepted(wireProtocol, count: accepted.count)
        return accepted
    }

    /// Validates one fix, with the secret presented beside it (OsmAnd's
    /// `key`), counting the outcome; the accepted fix or why not.
    public func accept(
        _ fix: DeviceFix, via wireProtocol: WireProtocol, credential: DeviceCredential? = nil
    ) -> Result<AcceptedFix, RejectReason> {
        metrics.fixesReceived(wireProtocol, count: 1)
        let result = judge(
            fix, via: wireProtocol, boundDevice: nil, credential: credential, now: clock.now,
            registry: devices.withLock { $0 }, zones: zones?.current)
        if case .success = result { metrics.fixesAccepted(wireProtocol, count: 1) }
        return result
    }

    private func judge(
        _ fix: DeviceFix, via wireProtocol: WireProtocol, boundDevice: String?, credential: DeviceCredential?, now: Date,
        registry: DeviceRegistry, zones index: ZoneIndex?
    ) -> Result<AcceptedFix, RejectReason> {
        if let bound = boundDevice, fix.deviceId != bound {
            metrics.fixRejected(wireProtocol, .deviceMismatch)
            return .failure(.deviceMismatch)
        }
        guard let device = registry.device(fix.deviceId) else {
            metrics.fixRejected(wireProtocol, .unknownDevice)
            return .failure(.unknownDevice)
        }
        if let reason = secretPolicy.refusal(
            for: device, presented: credential?.secret(for: fix.deviceId), via: wireProtocol)
        {
            metrics.fixRejected(wireProtocol, reason)
            return .failure(reason)
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
                    taxiId: device.taxi, deviceId: fix.deviceId, wireProtocol: wireProtocol, time: fix.time,
                    coordinate: coordinate, speedKmh: fix.speedKmh, heading: fix.course,
                    zoneId: index?.zone(at: coordinate)?.id, receivedAt: now))
        }
    }

    /// The server clock the pipeline judges fixes by.
    public var now: Date { clock.now }
}
