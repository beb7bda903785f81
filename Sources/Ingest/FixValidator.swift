import Foundation
import GeoKit
import Synchronization

/// Checks decoded fixes against ``ValidationRules`` and what each device sent
/// before (SPEC I3): duplicates, out-of-order fixes, impossible jumps.
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
        var recentTimes: [Date]
        /// A fix rejected as a jump; if the next fix agrees with it, the old
        /// position was the outlier and the track follows the new one.
        var rejectedJump: (time: Date, coordinate: Coordinate)?
    }

    private static let recentTimesKept = 32

    public let rules: ValidationRules
    private let tracks = Mutex<[String: Track]>([:])

    public init(rules: ValidationRules = ValidationRules()) {
        self.rules = rules
    }

    /// Remembers a device's newest fix without checking it (rebuilding after a restart).
    public func remember(deviceId: String, time: Date, coordinate: Coordinate) {
        tracks.withLock { tracks in
            tracks[deviceId] = Track(newestTime: time, newestCoordinate: coordinate, recentTimes: [time])
        }
    }

    /// Judges `fix` as received at `now` (server clock), and remembers it when accepted.
    public func check(_ fix: DeviceFix, now: Date) -> Verdict {
        if let reason = staticReason(fix, now: now) { return .reject(reason) }
        let coordinate = Coordinate(longitude: fix.longitude, latitude: fix.latitude)
        return tracks.withLock { tracks in
            guard var track = tracks[fix.deviceId] else {
                tracks[fix.deviceId] = Track(newestTime: fix.time, newestCoordinate: coordinate, recentTimes: [fix.time])
                return .accept(outOfOrder: false)
            }
            if track.recentTimes.contains(fix.time) { return .reject(.duplicate) }
            let outOfOrder = fix.time < track.newestTime
            if !outOfOrder {
                if isImplausibleJump(from: track.newestTime, track.newestCoordinate, to: fix.time, coordinate) {
                    let confirmsEarlierJump = track.rejectedJump.map {
                        !isImplausibleJump(from: $0.time, $0.coordinate, to: fix.time, coordinate)
                    } ?? false
                    if !confirmsEarlierJump {
                        track.rejectedJump = (fix.time, coordinate)
                        tracks[fix.deviceId] = track
                        return .reject(.implausibleJump)
                    }
                }
                track.newestTime = fix.time
                track.newestCoordinate = coordinate
                track.rejectedJump = nil
            }
            track.recentTimes.append(fix.time)
            if track.recentTimes.count > Self.recentTimesKept { track.recentTimes.removeFirst() }
            tracks[fix.deviceId] = track
            return .accept(outOfOrder: outOfOrder)
        }
    }

    /// Checks that need nothing but the fix and the clock.
    private func staticReason(_ fix: DeviceFix, now: Date) -> RejectReason? {
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
