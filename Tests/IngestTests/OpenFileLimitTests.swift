import Testing
@testable import Ingest

/// The open-file limit bounds the terminals connected at once: the room it
/// leaves beside the service's own descriptors, and the warning when the
/// devices file holds more devices than fit.
@Suite(.timeLimit(.minutes(20))) struct OpenFileLimitTests {
    @Test func theRoomForConnectionsKeepsTheServicesOwnDescriptors() {
        #expect(OpenFileLimit(soft: 1024, hard: 4096).connectionCapacity == 1024 - OpenFileLimit.reservedDescriptors)
        #expect(OpenFileLimit(soft: 100, hard: 100).connectionCapacity == 0)
    }

    /// 3,000 Teltonika devices under the common default of 1,024 open files
    /// (issue 19): a warning naming the limit, the devices and what to raise.
    @Test func moreDevicesThanFitAreWarnedOf() throws {
        let warning = try #require(OpenFileLimit(soft: 1024, hard: 1024).shortfallWarning(devices: 3000))
        #expect(warning.contains("1024"))
        #expect(warning.contains("3000 devices"))
        #expect(warning.contains("ulimit -Hn"))
        #expect(warning.contains("\(3000 + OpenFileLimit.reservedDescriptors)"))
    }

    @Test func devicesThatFitNeedNoWarning() {
        #expect(OpenFileLimit(soft: 65536, hard: 65536).shortfallWarning(devices: 3000) == nil)
        let exact = OpenFileLimit(soft: 3000 + OpenFileLimit.reservedDescriptors, hard: 65536)
        #expect(exact.shortfallWarning(devices: 3000) == nil)
        #expect(exact.shortfallWarning(devices: 3001) != nil)
    }

    /// Raising is idempotent: afterwards the soft limit is the hard one.
    @Test func raisingLeavesTheSoftLimitAtTheHardOne() throws {
        let (_, after) = try OpenFileLimit.raiseSoftToHard()
        #expect(after.soft == after.hard)
        #expect(try OpenFileLimit.current() == after)
    }
}
