import FixRecords
import Foundation
import GeoKit
import Synchronization

/// Checks decoded fixes against ``ValidationRules`` and what each device sent
/// before (SPEC I3): numbers that are not finite, duplicates, out-of-order
/// fixes, impossible jumps.
///
/// A fix counts as sent (for duplicates and jumps) only once it is durable:
/// ``check(_:now:)`` judges without remembering, and ``recordCommitted(_:)``
/// remembers what the archive committed. A fix whose commit failed was never
/// acknowledged, so the terminal resends it; remembering it at `check` would
/// turn that resend into a "duplicate", acknowledged and never stored (SPEC I6).
///
/// Thread-safe: connections of all event loops share one validator, since a
/// device may reconnect on another loop. Out-of-order fixes are accepted (they
/// are history worth archiving) and reported so that the live index keeps the
/// newer position.
public final class FixValidator: Sendable {
    /// The outcome for one fix.
    public enum Verdict: Sendable, Equatable {
        /// Accept; `outOfOrder` is true when a newer fix of the device was already accepted.
        case accept(outOfOrder: Bool)
        case reject(RejectReason)
    }

    /// What is remembered of a device: its newest accepted fix and the times
    /// of its recent fixes (to spot resends).
    private struct Track {
        var newestTime: Date
        var newestCoordinate: Coordinate
        var recentTimes: RecentTimes
        /// A fix rejected as a jump; if the next fix agrees with it, the old
        /// position was the outlier and the track follows the new one.
        var rejectedJump: (time: Date, coordinate: Coordinate)?
    }

    public let rules: ValidationRules
    private let tracks = Mutex<[String: Track]>([:])

    public init(rules: ValidationRules = ValidationRules()) {
        self.rules = rules
    }

    /// Remembers fixes the archive has made durable (and, after a restart,
    /// each device's newest archived fix): from now on a resend of one is a
    /// duplicate, and jumps are measured from the newest.
    public func recordCommitted(_ fixes: [AcceptedFix]) {
        tracks.withLock { tracks in
            for fix in fixes {
                guard let index = tracks.index(forKey: fix.deviceId) else {
                    tracks[fix.deviceId] = Track(
                        newestTime: fix.time, newestCoordinate: fix.coordinate, recentTimes: RecentTimes(fix.time))
                    continue
                }
                Self.record(fix, in: &tracks.values[index])
            }
        }
    }

    /// Judges `fix` as received at `now` (server clock). An accepted fix is
    /// not remembered until ``recordCommitted(_:)``; a rejected jump is, so
    /// that the next fix can confirm it.
    public func check(_ fix: DeviceFix, now: Date) -> Verdict {
        if let reason = staticReason(fix, now: now) { return .reject(reason) }
        let coordinate = Coordinate(longitude: fix.longitude, latitude: fix.latitude)
        return tracks.withLock { tracks in
            guard let index = tracks.index(forKey: fix.deviceId) else { return .accept(outOfOrder: false) }
            return judge(fix.time, coordinate, against: &tracks.values[index])
        }
    }

    /// The verdict on a fix of a known device, judged in place (no copy of
    /// the track per fix: this runs for every fix received).
    private func judge(_ time: Date, _ coordinate: Coordinate, against track: inout Track) -> Verdict {
        if track.recentTimes.contains(time) { return .reject(.duplicate) }
        let outOfOrder = time < track.newestTime
        if !outOfOrder, isImplausibleJump(from: track.newestTime, track.newestCoordinate, to: time, coordinate) {
            let confirmsEarlierJump = track.rejectedJump.map {
                !isImplausibleJump(from: $0.time, $0.coordinate, to: time, coordinate)
            } ?? false
            if !confirmsEarlierJump {
                track.rejectedJump = (time, coordinate)
                return .reject(.implausibleJump)
            }
        }
        return .accept(outOfOrder: outOfOrder)
    }

    /// Adds a committed fix to its device's track; a resend already there changes nothing.
    private static func record(_ fix: AcceptedFix, in track: inout Track) {
        guard !track.recentTimes.contains(fix.time) else { return }
        if fix.time >= track.newestTime {
            track.newestTime = fix.time
            track.newestCoordinate = fix.coordinate
            track.rejectedJump = nil
        }
        track.recentTimes.insert(fix.time)
    }

    /// Checks that need nothing but the fix and the clock.
    private func staticReason(_ fix: DeviceFix, now: Date) -> RejectReason? {
        if !fix.hasFiniteNumbers { return .nonFinite }
        if !fix.valid && !rules.acceptInvalidGPS { return .gpsInvalid }
        let coordinate = Coordinate(longitude: fix.longitude, latitude: fix.latitude)
        if !coordinate.isInRange { return .outOfRange }
        if fix.latitude == 0 && fix.longitude == 0 { return .nullIsland }
        let age = now.timeIntervalSince(fix.time)
        if age < -rules.maxFutureSeconds { return .futureTime }
        if age > rules.maxAgeSeconds { return .tooOld }
        return nil
    }

    private func isImplausibleJump(from time: Date, _ from: Coordinate, to newTime: Date, _ to: Coordinate) -> Bool {
        let metres = from.haversineDistance(to: to)
        guard metres > rules.jumpToleranceMetres else { return false }
        let seconds = max(newTime.timeIntervalSince(time), 1)
        return metres / seconds * 3.6 > rules.maxJumpSpeedKmh
    }
}

/// The times of a device's last 32 fixes, to spot a resent one; a ring, so
/// that remembering a time neither allocates nor shifts.
struct RecentTimes {
    private static let capacity = 32
    private var times: [Date]
    private var oldest = 0

    /// A ring holding `first`.
    init(_ first: Date) {
        times = []
        times.reserveCapacity(Self.capacity)
        times.append(first)
    }

    /// True when `time` is one of the remembered times.
    func contains(_ time: Date) -> Bool {
        times.contains(time)
    }

    /// Remembers `time`, forgetting the oldest once 32 are held.
    mutating func insert(_ time: Date) {
        guard times.count == Self.capacity else { return times.append(time) }
        times[oldest] = time
        oldest = (oldest + 1) % Self.capacity
    }
}
