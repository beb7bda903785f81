import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One passenger app's HTTP/1.1 connection to the API, opened before the
/// burst and kept alive, as an app that is already talking to the service
/// keeps it: the burst then measures the service's answer, not the load
/// driver's connection set-up (Foundation's URLSession, over one libcurl
/// thread on Linux, takes longer to send 1,000 requests than the service
/// takes to answer them).
final class BurstConnection: Sendable {
    private let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    private init(channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>) {
        self.channel = channel
    }

    /// A connection to `127.0.0.1:port`.
    static func open(port: Int) async throws -> BurstConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return BurstConnection(channel: channel)
    }

    /// Sends `POST path` with a bearer `token` and the JSON `body`, and reads
    /// the answer; the connection is closed afterwards.
    /// - Returns: the status and the body.
    func post(_ path: String, token: String, body: Data) async throws -> (status: Int, body: Data) {
        try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
            head.headers.add(name: "Host", value: "127.0.0.1")
            head.headers.add(name: "Authorization", value: "Bearer \(token)")
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil)])
            var status = 0
            var answer = Data()
            for try await part in inbound {
                switch part {
                case .head(let response): status = Int(response.status.code)
                case .body(let buffer): answer.append(contentsOf: buffer.readableBytesView)
                case .end: return (status, answer)
                }
            }
            throw APILoadError("the service closed the connection before answering \(path)")
        }
    }
}
