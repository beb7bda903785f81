import FixRecords
import Foundation
import Logging
import MetricsTestKit
import NIOCore
import NIOEmbedded
import Testing
@testable import Ingest

/// A TCP listener whose `accept` fails (`EMFILE` at the open-file limit)
/// counts each failure by its reason and passes the error on to the
/// back-off, and the reasons name what an operator can act on.
@Suite(.timeLimit(.minutes(20))) struct AcceptFailureTests {
    @Test(arguments: [
        (EMFILE, AcceptFailureReason.tooManyOpenFiles), (ENFILE, .systemFileTableFull), (ENOBUFS, .outOfMemory),
        (ENOMEM, .outOfMemory), (ECONNABORTED, .connectionAborted), (EINVAL, .other),
    ])
    func eachErrnoHasItsReason(code: CInt, reason: AcceptFailureReason) {
        #expect(AcceptFailureReason(errno: code) == reason)
    }

    /// The failure is counted under its protocol and reason, and the error
    /// goes on down the pipeline (to NIO's accept back-off).
    @Test func aFailedAcceptIsCountedAndPassedOn() throws {
        let testMetrics = TestMetrics()
        let metrics = IngestMetrics(factory: testMetrics)
        let channel = EmbeddedChannel()
        let forwarded = ForwardedErrors()
        try channel.pipeline.syncOperations.addHandlers(
            AcceptFailureHandler(wireProtocol: .teltonika, metrics: metrics, log: AcceptFailureLog(logger: Logger(label: "test"))),
            forwarded)
        channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        channel.pipeline.fireErrorCaught(IOError(errnoCode: EMFILE, reason: "accept"))
        let counter = try testMetrics.expectCounter(
            "mytaxi_accept_failures_total", [("protocol", "teltonika"), ("reason", "too_many_open_files")])
        #expect(counter.totalValue == 2)
        #expect(forwarded.count == 2)
    }
}

/// Counts the errors that reach it.
private final class ForwardedErrors: ChannelInboundHandler {
    typealias InboundIn = Never
    var count = 0

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        count += 1
    }
}
