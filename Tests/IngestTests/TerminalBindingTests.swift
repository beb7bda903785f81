import FixRecords
import Foundation
import MetricsTestKit
import NIOCore
import NIOEmbedded
import Testing
@testable import Ingest

/// One TCP connection speaks for one device, and a device with a secret
/// logs in with it: the line-protocol handler on an `EmbeddedChannel`,
/// step by step, with the refusals counted by reason.
@Suite(.timeLimit(.minutes(20))) struct TerminalBindingTests {
    struct Harness {
        let channel: EmbeddedChannel
        let sink = HeldSink()
        let metrics = TestMetrics()

        init(devices: String, requireSecrets: Bool = false) throws {
            channel = try EmbeddedIngestChannel.make(
                sink: sink, devices: devices, metrics: metrics,
                secretPolicy: DeviceSecretPolicy(requireSecrets: requireSecrets)
            ) { pipeline, batcher in
                StreamIngestHandler<LineProtocolDecoder>(pipeline: pipeline, batcher: batcher)
            }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }

        func send(_ text: String) throws {
            try channel.writeInbound(channel.allocator.buffer(string: text))
            channel.embeddedEventLoop.run()
        }

        /// Makes every held submission durable; the devices of the fixes stored.
        func commitAll() -> [String] {
            var stored: [String] = []
            while sink.waiting > 0 { stored += sink.complete(with: .success(())).map(\.deviceId) }
            channel.embeddedEventLoop.run()
            return stored
        }

        /// What the handler wrote to the terminal so far.
        func written() throws -> String {
            var text = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
            return text
        }

        /// Fixes refused over the line protocol for `reason`.
        func rejected(_ reason: RejectReason) throws -> Int64 {
            try metrics.expectCounter("mytaxi_fixes_rejected_total", [("protocol", "line"), ("reason", reason.rawValue)]).totalValue
        }
    }

    static let login = "MT1,D1,1,LOGIN,s3cret-D1-000\n"

    /// The finding: one connection reported for several devices. Now the
    /// first device it names owns it; another device's line is refused,
    /// counted, and acknowledged as every refused fix is (resending would
    /// not help), and the connection goes on for its own device.
    @Test func aSecondDeviceOnOneConnectionIsRefusedAndCounted() throws {
        let harness = try Harness(devices: "device_id,taxi_id\nD1,TX1\nD2,TX2\n")
        try harness.send(ListenerHarness.line(device: "D1", seq: 1))
        try harness.send(ListenerHarness.line(device: "D2", seq: 2))
        try harness.send(ListenerHarness.line(device: "D1", seq: 3))
        #expect(harness.commitAll() == ["D1", "D1"])
        #expect(try harness.written() == "ACK,1\nACK,2\nACK,3\n")
        #expect(try harness.rejected(.deviceMismatch) == 1)
        #expect(harness.channel.isActive)
    }

    /// A login with the device's secret is acknowledged, and the fixes of
    /// that device that follow on the connection are stored.
    @Test func aLoginWithTheSecretLetsTheDevicesFixesThrough() throws {
        let harness = try Harness(devices: "device_id,taxi_id,secret\nD1,TX1,s3cret-D1-000\n")
        try harness.send(Self.login + ListenerHarness.line(device: "D1", seq: 2))
        #expect(harness.commitAll() == ["D1"])
        #expect(try harness.written() == "ACK,1\nACK,2\n")
    }

    /// A wrong secret, or a login of an unknown device, closes the
    /// connection without an answer; it is counted by reason.
    @Test(arguments: [
        ("MT1,D1,1,LOGIN,s3cret-D1-001\n", RejectReason.badSecret),
        ("MT1,D9,1,LOGIN,s3cret-D9-000\n", .unknownDevice),
    ])
    func aRefusedLoginClosesTheConnectionUnanswered(login: String, reason: RejectReason) throws {
        let harness = try Harness(devices: "device_id,taxi_id,secret\nD1,TX1,s3cret-D1-000\n")
        try harness.send(login + ListenerHarness.line(device: "D1", seq: 2))
        #expect(harness.sink.waiting == 0)
        #expect(try harness.written() == "")
        #expect(!harness.channel.isActive)
        #expect(try harness.rejected(reason) == 1)
    }

    /// The device has a secret: its fix lines without a login before them
    /// are refused (and acknowledged, as refused fixes are), never stored.
    @Test func aDeviceWithASecretIsRefusedWithoutItsLogin() throws {
        let harness = try Harness(devices: "device_id,taxi_id,secret\nD1,TX1,s3cret-D1-000\nD2,TX2\n")
        try harness.send(ListenerHarness.line(device: "D1", seq: 1))
        #expect(harness.sink.waiting == 0)
        #expect(try harness.written() == "ACK,1\n")
        #expect(try harness.rejected(.missingSecret) == 1)
        // The login comes late, on the same connection: the next fix is stored.
        try harness.send("MT1,D1,2,LOGIN,s3cret-D1-000\n" + ListenerHarness.line(device: "D1", seq: 3))
        #expect(harness.commitAll() == ["D1"])
        #expect(try harness.written() == "ACK,2\nACK,3\n")
    }

    /// Logged in as one device, a connection cannot log in as another, even
    /// with that device's own secret: refused unanswered and counted, and
    /// the connection goes on for its own device.
    @Test func anotherDevicesLoginIsRefusedAndTheConnectionGoesOn() throws {
        let harness = try Harness(devices: "device_id,taxi_id,secret\nD1,TX1,s3cret-D1-000\nD2,TX2,s3cret-D2-000\n")
        try harness.send(Self.login)
        try harness.send("MT1,D2,2,LOGIN,s3cret-D2-000\n" + ListenerHarness.line(device: "D2", seq: 3))
        try harness.send(ListenerHarness.line(device: "D1", seq: 4))
        #expect(harness.commitAll() == ["D1"])
        #expect(try harness.written() == "ACK,1\nACK,3\nACK,4\n")
        #expect(try harness.rejected(.deviceMismatch) == 2)
        #expect(harness.channel.isActive)
    }

    /// With secrets required, an old terminal's lines for a device without
    /// a secret are refused; with them not required they are stored as
    /// before.
    @Test(arguments: [(true, [String]()), (false, ["D1"])])
    func aDeviceWithoutASecretFollowsTheRequirement(required: Bool, stored: [String]) throws {
        let harness = try Harness(devices: "device_id,taxi_id\nD1,TX1\n", requireSecrets: required)
        try harness.send(ListenerHarness.line(device: "D1", seq: 1))
        #expect(harness.commitAll() == stored)
        #expect(try harness.written() == "ACK,1\n")
        #expect(try harness.rejected(.secretNotRegistered) == (required ? 1 : 0))
    }
}
