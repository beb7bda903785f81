import NIOCore
import NIOPosix
import ServiceLifecycle

/// The event loops every listener and HTTP server runs on, as the first
/// service of the group, so that they stop last: after the servers stopped
/// accepting and the archive wrote what was queued, the loops close the
/// connections that are left (with their ACKs sent) and end their threads.
struct EventLoopGroupService: Service {
    let group: MultiThreadedEventLoopGroup

    func run() async throws {
        try? await gracefulShutdown()
        try await group.shutdownGracefully()
    }
}
