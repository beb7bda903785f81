import NIOCore
import NIOPosix

/// A simulated terminal's TCP connection to the service: opens its session
/// once connected, sends one frame per fix, and counts the fixes the
/// service acknowledged from the answers it reads (an `ACK,<seq>` line, a
/// 4-byte record count, a GT06 echo frame). A connection that fails is
/// opened again, with the session's opening, at the next fix.
final class TerminalConnection {
    private let host: String
    private let port: Int
    private var frames: TerminalFrames
    private let tally: SimulationTally
    private var channel: (any Channel)?
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
        let kind = frames.kind
        let tally = tally
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AnswerCounter(kind: kind, tally: tally))
                }
            }
            .connect(host: host, port: port).get()
        let opening = frames.opening()
        if !opening.isEmpty { try await channel.writeAndFlush(ByteBuffer(bytes: opening)).get() }
        self.channel = channel
        return channel
    }
}

/// Reads the service's answers on a terminal's connection and counts the
/// fixes they acknowledge.
private final class AnswerCounter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let kind: TerminalKind
    private let tally: SimulationTally
    private var bytesRead = 0
    private var counted = 0

    init(kind: TerminalKind, tally: SimulationTally) {
        self.kind = kind
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
        if answered > counted { tally.fixesAcknowledged(answered - counted) }
        counted = answered
    }
}
