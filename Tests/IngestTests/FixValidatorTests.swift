import Foundation
import GeoKit
import Testing
@testable import Ingest

@Suite struct FixValidatorTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    func fix(device: String = "D1", second: Double = 0, lat: Double = 40.75, lon: Double = -73.98, valid: Bool = true) -> DeviceFix {
        DeviceFix(deviceId: device, time: Self.now.addingTimeInterval(second), latitude: lat, longitude: lon,
                  speedKmh: 30, course: 90, valid: valid)
    }

    @Test func staticChecksNameTheirReason() {
        let validator = FixValidator()
        #expect(validator.check(fix(valid: false), now: Self.now) == .reject(.gpsInvalid))
        #expect(validator.check(fix(lat: 91), now: Self.now) == .reject(.outOfRange))
        #expect(validator.check(fix(lat: .nan), now: Self.now) == .reject(.outOfRange))
        #expect(validator.check(fix(lat: 0, lon: 0), now: Self.now) == .reject(.nullIsland))
        #expect(validator.check(fix(second: 301), now: Self.now) == .reject(.futureTime))
        #expect(validator.check(fix(second: -8 * 24 * 3600), now: Self.now) == .reject(.tooOld))
        #expect(validator.check(fix(second: 299), now: Self.now) == .accept(outOfOrder: false))
    }

    @Test func aResentFixIsADuplicateEvenWhenOlderThanTheNewest() {
        let validator = FixValidator()
        #expect(validator.check(fix(second: -60), now: Self.now) == .accept(outOfOrder: false))
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: false))
        #expect(validator.check(fix(second: -60), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(second: -30), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(device: "D2", second: -30), now: Self.now) == .accept(outOfOrder: false))
    }

    @Test func theLast32TimesOfADeviceAreRemembered() {
        let validator = FixValidator()
        for second in stride(from: -1_200.0, to: 0, by: 30) {
            #expect(validator.check(fix(second: second), now: Self.now) == .accept(outOfOrder: false))
        }
        // 40 fixes sent: the newest 32 are still known, the 8 oldest are forgotten (history, archived again).
        #expect(validator.check(fix(second: -30), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(second: -960), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(second: -990), now: Self.now) == .accept(outOfOrder: true))
        #expect(validator.check(fix(second: -990), now: Self.now) == .reject(.duplicate))
    }

    @Test func anOlderFixIsAcceptedButFlaggedOutOfOrder() {
        let validator = FixValidator()
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: false))
        #expect(validator.check(fix(second: -90), now: Self.now) == .accept(outOfOrder: true))
        #expect(validator.check(fix(second: 0), now: Self.now) == .accept(outOfOrder: false))
    }

    @Test func aJumpFasterThanACarIsRejectedUnlessTheNextFixConfirmsIt() {
        let validator = FixValidator()
        #expect(validator.check(fix(second: -60), now: Self.now) == .accept(outOfOrder: false))
        // 0.1° of latitude (11 km) in 30 s is 1,300 km/h.
        #expect(validator.check(fix(second: -30, lat: 40.85), now: Self.now) == .reject(.implausibleJump))
        // 30 s later, 100 m from the rejected one: the first position was the outlier.
        #expect(validator.check(fix(second: 0, lat: 40.8509), now: Self.now) == .accept(outOfOrder: false))
        // Small moves are never jumps, even in one second.
        #expect(validator.check(fix(second: 1, lat: 40.8518), now: Self.now) == .accept(outOfOrder: false))
    }

    @Test func aRememberedFixCountsAfterARestart() {
        let validator = FixValidator()
        validator.remember(deviceId: "D1", time: Self.now, coordinate: .init(longitude: -73.98, latitude: 40.75))
        #expect(validator.check(fix(second: 0), now: Self.now) == .reject(.duplicate))
        #expect(validator.check(fix(second: -30), now: Self.now) == .accept(outOfOrder: true))
    }
}
