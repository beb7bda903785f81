import FixRecords
import Fleet
import Foundation
import Metrics
import MetricsTestKit
import Testing
@testable import Ingest

/// Which device may report over which protocol with which secret: a secret
/// set is a secret enforced; `--require-device-secret` refuses devices
/// without one where a secret can be carried; the protocols that cannot
/// carry one (GT06, Teltonika, NMEA) identify by device id alone.
@Suite(.timeLimit(.minutes(20))) struct DeviceSecretPolicyTests {
    static let withSecret = RegisteredDevice(taxi: "TX1", secret: DeviceSecret(registered: "s3cret-D1-000"))
    static let withoutSecret = RegisteredDevice(taxi: "TX2")
    static let right = DeviceSecret(presented: "s3cret-D1-000")
    static let wrong = DeviceSecret(presented: "s3cret-D1-001")

    @Test(arguments: [
        // A device with a secret must present it, required or not.
        (withSecret, DeviceSecret?.some(right), WireProtocol.line, false, RejectReason?.none),
        (withSecret, right, .osmand, true, nil),
        (withSecret, nil, .line, false, .missingSecret),
        (withSecret, wrong, .line, false, .badSecret),
        (withSecret, wrong, .osmand, true, .badSecret),
        // Its id alone over a protocol that cannot carry the secret is not enough.
        (withSecret, nil, .gt06, false, .missingSecret),
        (withSecret, nil, .teltonikaUDP, true, .missingSecret),
        // A device without one is accepted as before unless secrets are required...
        (withoutSecret, nil, .line, false, nil),
        (withoutSecret, wrong, .osmand, false, nil),
        (withoutSecret, nil, .line, true, .secretNotRegistered),
        (withoutSecret, wrong, .osmand, true, .secretNotRegistered),
        // ...and over GT06, Teltonika and NMEA even then.
        (withoutSecret, nil, .gt06, true, nil),
        (withoutSecret, nil, .teltonika, true, nil),
        (withoutSecret, nil, .nmea, true, nil),
    ])
    func theVerdict(device: RegisteredDevice, presented: DeviceSecret?, via: WireProtocol, required: Bool, expected: RejectReason?) {
        #expect(DeviceSecretPolicy(requireSecrets: required).refusal(for: device, presented: presented, via: via) == expected)
    }

    /// The pipeline counts each refusal by reason, and a credential vouches
    /// for its own device's fixes only.
    @Test func thePipelineCountsRefusalsByReasonAndACredentialCoversItsOwnDeviceOnly() throws {
        let testMetrics = TestMetrics()
        let pipeline = IngestPipeline(
            devices: try DeviceRegistry(csv: "D1,TX1,s3cret-D1-000\nD2,TX2,s3cret-D2-000\nD3,TX3\n"), zones: nil,
            validator: FixValidator(), sink: HeldSink(), metrics: IngestMetrics(factory: testMetrics),
            secretPolicy: DeviceSecretPolicy(requireSecrets: true))
        let time = Date().addingTimeInterval(-60)
        func fix(_ device: String) -> DeviceFix {
            DeviceFix(deviceId: device, time: time, latitude: 43.73, longitude: 7.42, speedKmh: 10, course: 0, valid: true)
        }
        let credential = DeviceCredential(deviceId: "D1", secret: Self.right)
        let accepted = pipeline.accept([fix("D1"), fix("D2"), fix("D3")], via: .line, credential: credential)
        #expect(accepted.map(\.deviceId) == ["D1"])
        let wrongKey = DeviceCredential(deviceId: "D2", secret: Self.wrong)
        if case .success = pipeline.accept(fix("D2"), via: .osmand, credential: wrongKey) {
            Issue.record("a wrong key was accepted")
        }
        #expect(pipeline.accept([fix("D1")], via: .line, boundDevice: "D2").isEmpty)

        func rejected(_ wireProtocol: WireProtocol, _ reason: RejectReason) throws -> Int64 {
            try testMetrics.expectCounter(
                "mytaxi_fixes_rejected_total", [("protocol", wireProtocol.rawValue), ("reason", reason.rawValue)]
            ).totalValue
        }
        #expect(try rejected(.line, .missingSecret) == 1, "D2's fix: D1's secret does not vouch for it")
        #expect(try rejected(.line, .secretNotRegistered) == 1, "D3 has no secret while they are required")
        #expect(try rejected(.osmand, .badSecret) == 1)
        #expect(try rejected(.line, .deviceMismatch) == 1)
    }

    /// The operator is told at start (and on reload) how many devices
    /// secrets being required will refuse.
    @Test func requiringSecretsWarnsOfDevicesWithoutOne() throws {
        let registry = try DeviceRegistry(csv: "D1,TX1,s3cret-D1-000\nD2,TX2\nD3,TX3,\n")
        let warning = try #require(DeviceSecretPolicy(requireSecrets: true).warning(for: registry))
        #expect(warning.contains("2 of 3 devices have no secret"), "\(warning)")
        #expect(DeviceSecretPolicy(requireSecrets: false).warning(for: registry) == nil)
        #expect(DeviceSecretPolicy(requireSecrets: true).warning(for: try DeviceRegistry(csv: "D1,TX1,s3cret-D1-000\n")) == nil)
    }
}
