import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL

/// One connection to the relay: commands out, replies in, and the switch
/// to TLS in the middle (STARTTLS), which puts the TLS handler first in the
/// channel while the line decoder and the reply handler stay.
struct SMTPConnection {
    private let channel: any Channel
    private let timeout: TimeAmount
    /// Why the connection failed, as its reply handler saw it.
    private let failure: NIOLockedValueBox<SMTPError?>

    /// Connects to `host`:`port`, with TLS from the first byte when `tls` is given.
    static func open(
        host: String, port: Int, tls: NIOSSLContext?, group: any EventLoopGroup, timeout: TimeAmount
    ) async throws(SMTPError) -> SMTPConnection {
        let failure = NIOLockedValueBox<SMTPError?>(nil)
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: tls, serverHostname: Self.serverName(host)))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                        try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(reportingFailureTo: failure))
                    }
                }
                .connect(host: host, port: port).get()
            return SMTPConnection(channel: channel, timeout: timeout, failure: failure)
        } catch let error as SMTPError {
            throw error
        } catch {
            throw .transient("cannot connect to the relay \(host):\(port): \(error)")
        }
    }

    /// The next reply (the greeting, or the answer to the last command).
    func reply() async throws(SMTPError) -> SMTPReply {
        let timeout = timeout
        let eventLoop = channel.eventLoop
        do {
            return try await channel.pipeline.handler(type: SMTPReplyHandler.self)
                .flatMap { $0.next(timeout: timeout, on: eventLoop) }.get()
        } catch let error as SMTPError {
            throw error
        } catch {
            throw failure.withLockedValue { $0 } ?? .transient("the connection to the relay failed: \(error)")
        }
    }

    /// Sends `line` (CRLF added) and waits for its reply.
    func command(_ line: String) async throws(SMTPError) -> SMTPReply {
        try await write(line + "\r\n")
        return try await reply()
    }

    /// Writes `text` as it is.
    func write(_ text: String) async throws(SMTPError) {
        do {
            try await channel.writeAndFlush(channel.allocator.buffer(string: text)).get()
        } catch {
            // A closed channel's reply handler knows why it closed (a TLS handshake refused, say).
            throw failure.withLockedValue { $0 } ?? .transient("cannot write to the relay: \(error)")
        }
    }

    /// Puts TLS under what follows (after the relay's 220 to STARTTLS).
    func startTLS(_ context: NIOSSLContext, host: String) async throws(SMTPError) {
        do {
            try await channel.eventLoop.flatSubmit { [channel] in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: Self.serverName(host)), position: .first)
                }
            }.get()
        } catch {
            throw .permanent("cannot start TLS with the relay: \(error)")
        }
    }

    /// The name TLS asks the relay's certificate for: the host, unless it
    /// is an IP address, which SNI cannot carry (the certificate is then
    /// checked against the address connected to).
    private static func serverName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    /// Closes the connection, whatever its state.
    func close() async {
        try? await channel.close().get()
    }
}
