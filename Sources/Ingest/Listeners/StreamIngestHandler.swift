import FixRecords
import Foundation
import NIOCore

/// One TCP connection of a terminal: frames in, fixes to the pipeline,
/// ACKs out only once the archive has committed the fixes they cover.
///
/// All frames that arrive in one read go to the archive as one submission;
/// replies leave in frame order. A bad frame is skipped or closes this
/// connection only (SPEC I1): it never reaches the listener or other devices.
///
/// Backpressure: the connection stops reading (and so the kernel's window
/// closes on the terminal) while ``maxPendingReads`` of its reads wait for
/// the archive, while the terminal does not read its ACKs (the channel is
/// not writable), or while the archive as a whole is behind; it reads again
/// when the cause is gone. So neither a slow disk nor a client that never
/// reads can grow the server's memory without bound.
final class StreamIngestHandler<Decoder: StreamFrameDecoder>: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Replies of one read, waiting for their fixes to be durable.
    private struct PendingReplies {
        var id: UInt64
        var bytes: [UInt8]
        var durable: Bool
        var arrivedAt: ContinuousClock.Instant
    }

    /// Bytes buffered without a complete frame before the connection is dropped.
    static var maxBufferedBytes: Int { 256 * 1024 }
    /// Reads whose fixes may wait for the archive before the connection stops reading.
    static var maxPendingReads: Int { 4 }

    private let pipeline: IngestPipeline
    private let batcher: LoopSubmissionBatcher
    private var decoder = Decoder()
    private var buffer: ByteBuffer?
    private var pending: [PendingReplies] = []
    private var nextBatchId: UInt64 = 0
    private var closing = false
    /// True once the connection is bound to a device that may report over
    /// it (see ``TerminalIdentified``).
    private var identified = false
    /// The device the connection speaks for, and the secret it presented.
    private var binding = TerminalBinding()
    /// A read the channel asked for and this handler holds back (backpressure).
    private var readHeld = false
    private var waitingForArchiveRoom = false
    private let clock = ContinuousClock()

    init(pipeline: IngestPipeline, batcher: LoopSubmissionBatcher) {
        self.pipeline = pipeline
        self.batcher = batcher
    }

    private var wireProtocol: WireProtocol { Decoder.wireProtocol }

    func channelActive(context: ChannelHandlerContext) {
        pipeline.metrics.connectionOpened(wireProtocol)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        pipeline.metrics.connectionClosed(wireProtocol)
        closing = true
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        guard !closing else { return }
        if buffer == nil {
            buffer = incoming
        } else {
            buffer!.writeBuffer(&incoming)
        }
        decodeAvailableFrames(context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(context: context)
    }

    func read(context: ChannelHandlerContext) {
        guard mustHoldReads(context: context) else { return context.read() }
        if !readHeld { pipeline.metrics.readPaused(wireProtocol) }
        readHeld = true
        waitForArchiveRoomIfBacklogged(context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        resumeReadingIfAllowed(context: context)
        context.fireChannelWritabilityChanged()
    }

    /// True while reading more would only queue more in memory.
    private func mustHoldReads(context: ChannelHandlerContext) -> Bool {
        pending.count >= Self.maxPendingReads || !context.channel.isWritable || batcher.archiveIsBacklogged
    }

    private func resumeReadingIfAllowed(context: ChannelHandlerContext) {
        guard readHeld, !closing else { return }
        if mustHoldReads(context: context) { return waitForArchiveRoomIfBacklogged(context: context) }
        readHeld = false
        context.read()
    }

    /// A connection held back by the archive alone may have nothing of its
    /// own in flight to wake it; the loop's batcher does once there is room.
    private func waitForArchiveRoomIfBacklogged(context: ChannelHandlerContext) {
        guard batcher.archiveIsBacklogged, !waitingForArchiveRoom else { return }
        waitingForArchiveRoom = true
        batcher.whenArchiveHasRoom {
            self.waitingForArchiveRoom = false
            self.resumeReadingIfAllowed(context: context)
        }
    }

    private func decodeAvailableFrames(context: ChannelHandlerContext) {
        guard var bytes = buffer else { return }
        buffer = nil
        var replies: [UInt8] = []
        var accepted: [AcceptedFix] = []
        var shouldClose = false
        decoding: while bytes.readableBytes > 0 {
            switch bytes.decodeReadableBytes({ raw throws(FrameError) in try decoder.decodeFrame(raw) }) {
            case .success(nil):
                break decoding
            case .success(let frame?):
                bytes.moveReaderIndex(forwardBy: min(max(frame.length, 1), bytes.readableBytes))
                pipeline.metrics.frameReceived(wireProtocol)
                if let device = frame.announcedDeviceId {
                    guard binding.admits(device) else {
                        // Another device's login: refused unanswered; the connection goes on for its own.
                        pipeline.metrics.fixRejected(wireProtocol, .deviceMismatch)
                        continue decoding
                    }
                    let credential = frame.presentedSecret.map { DeviceCredential(deviceId: device, secret: $0) }
                    if pipeline.checkLogin(ofDevice: device, credential: credential, via: wireProtocol) != nil {
                        replies += frame.refusalReply ?? []
                        shouldClose = true
                        break decoding
                    }
                    binding.loggedIn(credential)
                }
                binding.bindIfUnbound(to: frame.fixes.first?.deviceId)
                let acceptedNow = pipeline.accept(
                    frame.fixes, via: wireProtocol, boundDevice: binding.device, credential: binding.credential)
                if !identified { noteIdentification(context: context) }
                accepted += acceptedNow
                replies += frame.reply
            case .failure(let error):
                pipeline.metrics.frameRejected(wireProtocol, error.reason)
                switch error.recovery {
                case .skip(let count):
                    bytes.moveReaderIndex(forwardBy: min(max(count, 1), bytes.readableBytes))
                case .closeConnection:
                    shouldClose = true
                    break decoding
                }
            }
        }
        if bytes.readableBytes > Self.maxBufferedBytes {
            pipeline.metrics.frameRejected(wireProtocol, .oversized)
            shouldClose = true
        }
        if bytes.readableBytes > 0 {
            bytes.discardReadBytes()
            buffer = bytes
        }
        enqueue(replies: replies, fixes: accepted, context: context)
        if shouldClose {
            closeAfterPendingReplies(context: context)
        }
    }

    /// Tells the deadline handler once the connection is bound to a device
    /// that may report over it: named in a login (GT06, Teltonika, NMEA, a
    /// line-protocol `LOGIN`) or in a fix, registered, and with its secret
    /// when it needs one.
    private func noteIdentification(context: ChannelHandlerContext) {
        guard let device = binding.device,
            pipeline.refusal(ofDevice: device, credential: binding.credential, via: wireProtocol) == nil
        else { return }
        identified = true
        context.triggerUserOutboundEvent(TerminalIdentified(), promise: nil)
    }

    /// Queues replies behind earlier ones; they leave once `fixes` are durable.
    private func enqueue(replies: [UInt8], fixes: [AcceptedFix], context: ChannelHandlerContext) {
        guard !replies.isEmpty || !fixes.isEmpty else { return }
        let id = nextBatchId
        nextBatchId += 1
        pending.append(PendingReplies(id: id, bytes: replies, durable: fixes.isEmpty, arrivedAt: clock.now))
        if fixes.isEmpty {
            flushDurableReplies(context: context)
            return
        }
        batcher.submit(fixes) { result in
            self.commitFinished(batch: id, result: result, context: context)
        }
    }

    private func commitFinished(batch: UInt64, result: Result<Void, any Error>, context: ChannelHandlerContext) {
        switch result {
        case .success:
            if let index = pending.firstIndex(where: { $0.id == batch }) { pending[index].durable = true }
            flushDurableReplies(context: context)
        case .failure:
            // Not durable, so not acknowledged: the device keeps the fixes and resends them.
            pipeline.metrics.archiveFailed()
            pending.removeAll()
            close(context: context)
        }
    }

    private func flushDurableReplies(context: ChannelHandlerContext) {
        var wrote = false
        let now = clock.now
        while let first = pending.first, first.durable {
            pending.removeFirst()
            guard !first.bytes.isEmpty, context.channel.isActive else { continue }
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: first.bytes)), promise: nil)
            pipeline.metrics.ackSent(wireProtocol, latency: now - first.arrivedAt)
            wrote = true
        }
        if wrote { context.flush() }
        if closing && pending.isEmpty { close(context: context) }
        resumeReadingIfAllowed(context: context)
    }

    private func closeAfterPendingReplies(context: ChannelHandlerContext) {
        closing = true
        buffer = nil
        if pending.isEmpty { close(context: context) }
    }

    private func close(context: ChannelHandlerContext) {
        closing = true
        context.close(promise: nil)
    }
}
