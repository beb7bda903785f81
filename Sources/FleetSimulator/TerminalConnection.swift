import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A simulated terminal's TCP connection to the service: opens its session
/// once connected, sends one frame per fix, and tells the tally which fixes
/// the service acknowledged from the answers it reads (an `ACK,<seq>` line,
/// a 4-byte record count, a GT06 echo frame), which come in the order the
/// frames were sent. A connection that fails is opened again, with the
/// session's opening, at the next fix.
final class TerminalConnection {
    private let host: String
    private let port: Int
    private var frames: TerminalFrames
    private let tally: SimulationTally
    private var channel: (any Channel)?
    private var unanswered = UnansweredFixes()
    private var sequence: UInt64 = 0

    /// The terminal `frames` speak, to `host:port`, counting into `tally`.
    init(host: String, port: Int, frames: TerminalFrames, tally: SimulationTally) {
        self.host = host
        self.port = port
        self.frames = frames
        self.tally = tally
    }

    /// Sends `fix`, connecting first when needed; a failure is counted and
    /// the connection dropped, so that the next fix opens a new one.
    func send(_ fix: TerminalFix) async {
        do {
            let channel = try await connected()
            sequence += 1
            unanswered.sent(fix.time)
            try await channel.writeAndFlush(ByteBuffer(bytes: frames.frame(fix, sequence: sequence))).get()
            tally.fixSent(frames.kind)
        } catch {
            tally.terminalFailed()
            close()
        }
    }

    /// Closes the connection.
    func close() {
        channel?.close(promise: nil)
        channel = nil
    }

    private func connected() async throws -> any Channel {
        if let channel, channel.isActive { return channel }
        let kind = frames.kind, deviceId = frames.deviceId
        let tally = tally
        let unanswered = UnansweredFixes()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        AnswerCounter(kind: kind, deviceId: deviceId, unanswered: unanswered, tally: tally))
                }
            }
            .connect(host: host, port: port).get()
        let opening = frames.opening()
        if !opening.isEmpty { try await channel.writeAndFlush(ByteBuffer(bytes: opening)).get() }
        self.channel = channel
        self.unanswered = unanswered
        return channel
    }
}

/// The times of the fixes sent on one connection and not answered yet,
/// oldest first.
private final class UnansweredFixes: Sendable {
    private let times = Mutex<[Date]>([])

    /// A fix of `time` was sent.
    func sent(_ time: Date) { times.withLock { $0.append(time) } }

    /// The times of the `count` oldest fixes, which an answer has acknowledged.
    func answered(_ count: Int) -> [Date] {
        times.withLock { times in
            let answered = Array(times.prefix(count))
            times.removeFirst(answered.count)
            return answered
        }
    }
}

/// Reads the service's answers on a terminal's connection and tells the
/// tally the fixes they acknowledge.
private final class AnswerCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let kind: TerminalKind
    private let deviceId: String
    private let unanswered: UnansweredFixes
    private let tally: SimulationTally
    private var bytesRead = 0
    private var counted = 0

    init(kind: TerminalKind, deviceId: String, unanswered: UnansweredFixes, tally: SimulationTally) {
        self.kind = kind
        self.deviceId = deviceId
        self.unanswered = unanswered
        self.tally = tally
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let newlines = buffer.readableBytesView.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        bytesRead += buffer.readableBytes
        let answered: Int
        switch kind {
        case .line: answered = counted + newlines
        case .teltonika: answered = max(bytesRead - 1, 0) / 4
        case .gt06: answered = max(bytesRead / 10 - 1, 0)
        }
        if answered > counted { tally.fixesAcknowledged(of: deviceId, at: unanswered.answered(answered - counted)) }
        counted = answered
    }
}
