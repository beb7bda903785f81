import FixRecords
import Fleet
import Foundation
import GeoKit
import Testing
@testable import Ingest

@Suite(.timeLimit(.minutes(20))) struct FixValidatorTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    func fix(device: String = "D1", second: Double = 0, lat: Double = 40.75, lon: Double = -73.98, valid: Bool = true) -> DeviceFix {
        DeviceFix(deviceId: device, time: Self.now.addingTimeInterval(second), latitude: lat, longitude: lon,
                  speedKmh: 30, course: 90, valid: valid)
    }

    /// Checks `fix` and, when it is accepted, commits it as the archive would.
    func checkAndCommit(_ validator: FixValidator, _ fix: DeviceFix) -> FixValidator.Verdict {
        let verdict = validator.check(fix, now: Self.now)
        if case .accept = verdict { validator.recordCommitted([accepted(fix)]) }
        return verdict
    }

    func accepted(_ fix: DeviceFix) -> AcceptedFix {
        AcceptedFix(
            taxiId: "TX1", deviceId: fix.deviceId, wireProtocol: .line, time: fix.time,
            coordinate: .init(longitude: fix.longitude, latitude: fix.latitude), speedKmh: fix.speedKmh,
            heading: fix.course, zoneId: nil, receivedAt: Self.now)
    }

    @Test func staticChecksNameTheirReason() {
        let validator = FixValidator()
        #expect(validator.check(fix(valid: false), now: Self.now) == .reject(.gpsInvalid))
        #expect(validator.check(fix(lat: 91), now: Self.now) == .reject(.outOfRange))
        #expect(validator.check(fix(lat: 0, lon: 0), now: Self.now) == .reject(.nullIsland))
        #expect(validator.check(fix(second: 301), now: Self.now) == .reject(.futureTime))
        #expect(validator.check(fix(second: -8 * 24 * 3600), now: Self.now) == .reject(.tooOld))
        #expect(validator.check(fix(second: 299), now: Self.now) == .accept(outOfOrder: false))
    }

    @Test func aResentFixIsADuplicateEvenWhenOlderThanTheNewest() {
        let validator = FixValidator()
        #expect(checkAndCommit(validator, fix(second: -60)) == .accept(outOfOrder: false))
        #expect(checkAndCommit(validator, fix(second: -30)) == .accept(outOfOrder: false))
        #expect(checkAndCommit(validator, fix(second: -60)) == .reject(.duplicate))
        #expect(checkAndCommit(validator, fix(second: -30)) == .reject(.duplicate))
        #expect(checkAndCommit(validator, fix(device: "D2", second: -30)) == .accept(outOfOrder: false))
    }

    @Test func theLast32TimesOfADeviceAreRemembered() {
        let validator = FixValidator()
        for second in stride(from: -1_200.0, to: 0, by: 30) {
            #expect(checkAndCommit(validator, fix(second: second)) == .accept(outOfOrder: false))
        }
        // 40 fixes sent: the newest 32 are still known, the 8 oldest are forgotten (history, archived again).
        #expect(checkAndCommit(validator, fix(second: -30)) == .reject(.duplicate))
        #expect(checkAndCommit(validator, fix(second: -960)) == .reject(.duplicate))
        #expect(checkAndCommit(validator, fix(second: -990)) == .accept(outOfOrder: true))
        #expect(checkAndCommit(validator, fix(second: -990)) == .reject(.duplicate))
    }

    @Test func anOlderFixIsAcceptedButFlaggedOutOfOrder() {
        let validator = FixValidator()
        #expect(checkAndCommit(validator, fix(second: -30)) == .accept(outOfOrder: false))
        #expect(checkAndCommit(validator, fix(second: -90)) == .accept(outOfOrder: true))
        #expect(checkAndCommit(validator, fix(second: 0)) == .accept(outOfOrder: false))
    }

    @Test func aJumpFasterThanACarIsRejectedUnlessTheNextFixConfirmsIt() {
        let validator = FixValidator()
        #expect(checkAndCommit(validator, fix(second: -60)) == .accept(outOfOrder: false))
        // 0.1° of latitude (11 km) in 30 s is 1,300 km/h.
        #expect(checkAndCommit(validator, fix(second: -30, lat: 40.85)) == .reject(.implausibleJump))
        // 30 s later, 100 m from the rejected one: the first position was the outlier.
        #expect(checkAndCommit(validator, fix(second: 0, lat: 40.8509)) == .accept(outOfOrder: false))
        // Small moves are never jumps, even in one second.
        #expect(checkAndCommit(validator, fix(second: 1, lat: 40.8518)) == .accept(outOfOrder: false))
    }

    @Test func aRememberedFixCountsAfterARestart() {
        let validator = FixValidator()
        validator.recordCommitted([accepted(fix(second: 0))])
        #expect(checkAndCommit(validator, fix(second: 0)) == .reject(.duplicate))
        #expect(checkAndCommit(validator, fix(second: -30)) == .accept(outOfOrder: true))
    }

    /// Every number of a fix must be finite: a NaN passes every range check
    /// (comparisons with it are false) and traps where a time becomes an integer.
    @Test(arguments: ["latitude", "longitude", "speedKmh", "course"])
    func aNonFiniteNumberIsRejected(field: String) {
        let validator = FixValidator()
        for value in [Double.nan, .infinity, -.infinity] {
            var bad = fix()
            switch field {
            case "latitude": bad.latitude = value
            case "longitude": bad.longitude = value
            case "speedKmh": bad.speedKmh = value
            default: bad.course = value
            }
            #expect(validator.check(bad, now: Self.now) == .reject(.nonFinite), "\(field) = \(value)")
        }
    }

    @Test func aNonFiniteTimeOrOptionalNumberIsRejected() {
        let validator = FixValidator()
        for value in [Double.nan, .infinity, -.infinity] {
            var bad = fix()
            bad.time = Date(timeIntervalSince1970: value)
            #expect(validator.check(bad, now: Self.now) == .reject(.nonFinite))
            bad = fix()
            bad.altitude = value
            #expect(validator.check(bad, now: Self.now) == .reject(.nonFinite))
            bad = fix()
            bad.accuracy = value
            #expect(validator.check(bad, now: Self.now) == .reject(.nonFinite))
            bad = fix()
            bad.batteryPercent = value
            #expect(validator.check(bad, now: Self.now) == .reject(.nonFinite))
        }
        var far = fix()
        far.time = Date(timeIntervalSince1970: 1e300)
        #expect(validator.check(far, now: Self.now) == .reject(.futureTime))
        far.time = Date(timeIntervalSince1970: -1e300)
        #expect(validator.check(far, now: Self.now) == .reject(.tooOld))
    }

    /// A fix whose commit failed was never acknowledged: its resend must be
    /// accepted again (and so stored), not judged a duplicate.
    @Test func anAcceptedFixIsSeenOnlyOnceCommitted() {
        let validator = FixValidator()
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: false))
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: false))
        validator.recordCommitted([accepted(fix(second: -30))])
        #expect(validator.check(fix(second: -30), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(second: -60), now: Self.now) == .accept(outOfOrder: true))
    }

    /// A resend committed twice (its ACK was lost) changes nothing, and an
    /// older fix committed later does not move the newest position back.
    @Test func committingAResendOrAnOlderFixKeepsTheNewest() {
        let validator = FixValidator()
        validator.recordCommitted([accepted(fix(second: 0)), accepted(fix(second: 0)), accepted(fix(second: -60))])
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: true))
        // 11 km after the newest (second 0) in 30 s: a jump, measured from the newest.
        #expect(validator.check(fix(second: 30, lat: 40.85), now: Self.now) == .reject(.implausibleJump))
    }
}
