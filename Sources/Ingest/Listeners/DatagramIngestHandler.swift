import FixRecords
import Foundation
import NIOCore

/// A UDP listener's handler: each datagram is decoded on its own, its fixes
/// go to the pipeline, and the reply datagram leaves once they are durable.
/// A bad datagram is counted and dropped; nothing else is affected.
/// Replies that become due together leave in one flush (one `sendmmsg`).
///
/// A datagram from a source outside ``IngestAllowList`` is dropped unread
/// and counted. Each datagram carries its own credentials: a line-protocol
/// `LOGIN` line in it vouches for its device's fixes in that datagram; a
/// refused login (unknown device, a secret missing or wrong) drops the
/// whole datagram.
///
/// Only a datagram from a device that may report is answered: a source
/// address can be forged, so an answer to anyone else (an unknown device, a
/// device without its secret, a bare `PING`) would let the service reflect
/// traffic at a victim. While the archive is behind, datagrams are dropped
/// unread and counted: the terminal, with no ACK, sends them again.
final class DatagramIngestHandler<Decoder: DatagramDecoder>: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private let pipeline: IngestPipeline
    private let batcher: LoopSubmissionBatcher
    private let allowList: IngestAllowList
    private let notAllowedLog: NotAllowedLog?
    private let clock = ContinuousClock()
    private var flushScheduled = false

    init(
        pipeline: IngestPipeline, batcher: LoopSubmissionBatcher, allowList: IngestAllowList = IngestAllowList(),
        notAllowedLog: NotAllowedLog? = nil
    ) {
        self.pipeline = pipeline
        self.batcher = batcher
        self.allowList = allowList
        self.notAllowedLog = notAllowedLog
    }

    private var wireProtocol: WireProtocol { Decoder.wireProtocol }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard allowList.allows(envelope.remoteAddress) else {
            pipeline.metrics.datagramDropped(wireProtocol, .notAllowed)
            notAllowedLog?.refused(wireProtocol, from: envelope.remoteAddress)
            return
        }
        guard !batcher.archiveIsBacklogged else { return pipeline.metrics.datagramDropped(wireProtocol, .archiveBehind) }
        let arrivedAt = clock.now
        let frame: DecodedFrame
        switch envelope.data.decodeReadableBytes(Decoder.decodeDatagram) {
        case .failure(let error):
            pipeline.metrics.frameRejected(wireProtocol, error.reason)
            return
        case .success(let decoded):
            frame = decoded
        }
        pipeline.metrics.frameReceived(wireProtocol)
        var credential: DeviceCredential?
        if let device = frame.announcedDeviceId {
            credential = frame.presentedSecret.map { DeviceCredential(deviceId: device, secret: $0) }
            guard pipeline.checkLogin(ofDevice: device, credential: credential, via: wireProtocol) == nil else { return }
        }
        let accepted = pipeline.accept(frame.fixes, via: wireProtocol, credential: credential)
        guard comesFromADeviceThatMayReport(frame, accepted: accepted, credential: credential) else { return }
        let remote = envelope.remoteAddress
        let reply = frame.reply
        guard !accepted.isEmpty else {
            send(reply, to: remote, arrivedAt: arrivedAt, context: context)
            return
        }
        batcher.submit(accepted) { result in
            switch result {
            case .success: self.send(reply, to: remote, arrivedAt: arrivedAt, context: context)
            case .failure: self.pipeline.metrics.archiveFailed()
            }
        }
    }

    /// True when the datagram comes from a device of the devices file that
    /// may report with what it presented: one its header or login names
    /// (already checked), or one of its fixes' (accepted, or refused by
    /// validation only, which is still answered).
    private func comesFromADeviceThatMayReport(_ frame: DecodedFrame, accepted: [AcceptedFix], credential: DeviceCredential?) -> Bool {
        if frame.announcedDeviceId != nil || !accepted.isEmpty { return true }
        return frame.fixes.contains {
            pipeline.refusal(ofDevice: $0.deviceId, credential: credential, via: wireProtocol) == nil
        }
    }

    private func send(_ reply: [UInt8], to remote: SocketAddress, arrivedAt: ContinuousClock.Instant, context: ChannelHandlerContext) {
        // A full socket buffer means replies cannot leave; queueing them would grow without bound.
        guard !reply.isEmpty, context.channel.isWritable else { return }
        let buffer = context.channel.allocator.buffer(bytes: reply)
        context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: remote, data: buffer)), promise: nil)
        pipeline.metrics.ackSent(wireProtocol, latency: clock.now - arrivedAt)
        scheduleFlush(context: context)
    }

    /// Flushes once the replies of the current loop tick are all written.
    private func scheduleFlush(context: ChannelHandlerContext) {
        guard !flushScheduled else { return }
        flushScheduled = true
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let (handler, context) = loopBound.value
            handler.flushScheduled = false
            context.flush()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A UDP socket error (e.g. ICMP port unreachable for one sender) must not stop the listener.
    }
}
