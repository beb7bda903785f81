import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// Starts and stops the TCP and UDP listeners terminals connect to (SPEC I1),
/// one per configured protocol and port, all feeding one ``IngestPipeline``.
public final class IngestListeners: Sendable {
    private let pipeline: IngestPipeline
    private let group: any EventLoopGroup
    /// Deadlines and the connection limit of the TCP listeners.
    public let limits: IngestConnectionLimits
    /// The source addresses served (`--ingest-allow`); others are turned away unread.
    public let allowList: IngestAllowList
    private let channels = Mutex<[any Channel]>([])
    private let batchers: LoopSubmissionBatchers
    private let budget: ConnectionBudget
    private let refusalLog: ConnectionRefusalLog
    private let acceptFailureLog: AcceptFailureLog
    private let notAllowedLog: NotAllowedLog
    private let started = Atomic<Bool>(false)

    /// - Parameters:
    ///   - allowList: The source addresses served; a connection or datagram
    ///     from elsewhere is turned away unread and counted.
    ///   - logger: Where refused connections, sources turned away and
    ///     failed accepts are reported (one line every ten seconds at most
    ///     for each).
    public init(
        pipeline: IngestPipeline, group: any EventLoopGroup, limits: IngestConnectionLimits = IngestConnectionLimits(),
        allowList: IngestAllowList = IngestAllowList(), logger: Logger = Logger(label: "mytaxi.ingest")
    ) {
        self.pipeline = pipeline
        self.group = group
        self.limits = limits
        self.allowList = allowList
        notAllowedLog = NotAllowedLog(logger: logger)
        batchers = LoopSubmissionBatchers(group: group, pipeline: pipeline)
        budget = ConnectionBudget(limit: limits.maxConnections)
        refusalLog = ConnectionRefusalLog(logger: logger, limit: limits.maxConnections)
        acceptFailureLog = AcceptFailureLog(logger: logger)
    }

    /// Listens for TCP connections speaking `decoder`'s protocol; returns the bound port.
    ///
    /// A connection from outside ``allowList``, or beyond
    /// ``IngestConnectionLimits/maxConnections``, is closed as soon as it is
    /// accepted, before a byte is read, counted by reason, and logged as a
    /// warning (rate-limited). A failed `accept` (`EMFILE` at the open-file limit)
    /// is counted by reason and logged the same way, and the listener
    /// waits a second before accepting again (the connection stays queued)
    /// while the connections it has keep being served.
    @discardableResult
    public func listenTCP<D: StreamFrameDecoder>(_ decoder: D.Type, host: String, port: Int) async throws -> Int {
        let pipeline = self.pipeline
        let batchers = self.batchers
        let limits = self.limits
        let budget = self.budget
        let refusalLog = self.refusalLog
        let acceptFailureLog = self.acceptFailureLog
        let allowList = self.allowList
        let notAllowedLog = self.notAllowedLog
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        AcceptFailureHandler(wireProtocol: D.wireProtocol, metrics: pipeline.metrics, log: acceptFailureLog),
                        AcceptBackoffHandler(shouldForwardIOErrorCaught: false))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard allowList.allows(channel.remoteAddress) else {
                        pipeline.metrics.connectionRefused(D.wireProtocol, .notAllowed)
                        notAllowedLog.refused(D.wireProtocol, from: channel.remoteAddress)
                        channel.close(promise: nil)
                        return
                    }
                    guard budget.take() else {
                        pipeline.metrics.connectionRefused(D.wireProtocol, .maxConnections)
                        refusalLog.refused(D.wireProtocol)
                        channel.close(promise: nil)
                        return
                    }
                    channel.closeFuture.whenComplete { _ in budget.giveBack() }
                    guard let batcher = batchers.batcher(for: channel.eventLoop) else {
                        throw ChannelError.inappropriateOperationForState
                    }
                    try channel.pipeline.syncOperations.addHandlers(
                        TerminalDeadlineHandler(limits: limits, metrics: pipeline.metrics, wireProtocol: D.wireProtocol),
                        StreamIngestHandler<D>(pipeline: pipeline, batcher: batcher))
                }
            }
            .bind(host: host, port: port).get()
        channels.withLock { $0.append(channel) }
        return channel.localAddress?.port ?? port
    }

    /// Listens for UDP datagrams speaking `decoder`'s protocol; returns the bound port.
    /// A datagram from outside ``allowList`` is dropped unread and counted.
    ///
    /// One socket per event loop shares the port (SO_REUSEPORT), so that
    /// datagrams from different senders are decoded on every core; each socket
    /// reads up to ``datagramsPerRead`` datagrams per system call.
    @discardableResult
    public func listenUDP<D: DatagramDecoder>(_ decoder: D.Type, host: String, port: Int) async throws -> Int {
        var boundPort = port
        for eventLoop in group.makeIterator() {
            let channel = try await bindUDP(decoder, on: eventLoop, host: host, port: boundPort)
            channels.withLock { $0.append(channel) }
            boundPort = channel.localAddress?.port ?? boundPort
        }
        return boundPort
    }

    /// Datagrams a UDP socket takes in one `recvmmsg` call.
    static var datagramsPerRead: Int { 32 }
    /// The largest datagram a terminal may send; longer ones arrive truncated and fail to decode.
    static var maxDatagramBytes: Int { 2048 }

    private func bindUDP<D: DatagramDecoder>(_ decoder: D.Type, on eventLoop: any EventLoop, host: String, port: Int)
        async throws -> any Channel
    {
        let pipeline = self.pipeline
        let batchers = self.batchers
        let allowList = self.allowList
        let notAllowedLog = self.notAllowedLog
        return try await DatagramBootstrap(group: eventLoop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.socketOption(.init(rawValue: SO_REUSEPORT)), value: 1)
            .channelOption(.socketOption(.so_rcvbuf), value: 8 * 1024 * 1024)
            .channelOption(.datagramVectorReadMessageCount, value: Self.datagramsPerRead)
            .channelOption(
                .recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: Self.datagramsPerRead * Self.maxDatagramBytes))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let batcher = batchers.batcher(for: channel.eventLoop) else {
                        throw ChannelError.inappropriateOperationForState
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        DatagramIngestHandler<D>(
                            pipeline: pipeline, batcher: batcher, allowList: allowList, notAllowedLog: notAllowedLog))
                }
            }
            .bind(host: host, port: port).get()
    }

    /// Says that every configured listener is bound (the service's start is over).
    public func markStarted() {
        started.store(true, ordering: .releasing)
    }

    /// True once started and while every listener bound is still open (the
    /// health check); true with none, when every TCP and UDP listener is
    /// off on purpose.
    public var allListening: Bool {
        started.load(ordering: .acquiring) && channels.withLock { channels in channels.allSatisfy { $0.isActive } }
    }

    /// Stops accepting; open connections are closed by the event loop group's shutdown.
    public func close() async {
        let open = channels.withLock { channels in
            defer { channels.removeAll() }
            return channels
        }
        for channel in open { try? await channel.close() }
    }
}
