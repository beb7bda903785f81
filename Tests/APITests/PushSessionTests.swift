import Accounts
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import HummingbirdWSClient
import Logging
import NIOWebSocket
import ServiceClock
import Storage
import Synchronization
import TestSupport
import Testing
@testable import API

/// A push socket lives no longer than the session it was opened on: a
/// logout, a disabled account or the session's expiry closes it at once,
/// with a close code that says which (4001, 4003, 4002), so that a
/// disabled dispatcher's socket stops receiving the board.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct PushSessionTests {
    /// Opens `role`'s socket, runs `end` once its first message came, and
    /// returns the close frame the server sent.
    private func closeFrame(
        of role: Role, ending end: @escaping @Sendable (APIHarness, String) async throws -> Void
    ) async throws -> WebSocketCloseFrame? {
        let harness = try await APIHarness()
        let hub = Task { try await harness.server.notificationHub.run() }
        defer { hub.cancel() }
        let token = try await harness.token(role)
        let app = Application(
            router: harness.server.router(), server: .http1WebSocketUpgrade(webSocketRouter: harness.server.webSocketRouter()))
        let frame = Mutex<WebSocketCloseFrame?>(nil)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await withDeadline(seconds: 60) {
                let closed = try await WebSocketClient.connect(url: "ws://localhost:\(port)/v1/push?token=\(token)", logger: Logger(label: "test")) {
                    inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    var first = true
                    while try await messages.next() != nil {
                        if first { try await end(harness, token) }
                        first = false
                    }
                }
                frame.withLock { $0 = closed }
            }
        }
        return frame.withLock { $0 }
    }

    @Test func aLogoutClosesTheSocketsOfItsSession() async throws {
        let closed = try await closeFrame(of: .dispatcher) { harness, token in
            try await harness.accounts.logout(token: token)
        }
        #expect(closed?.closeCode == .unknown(4001), "\(String(describing: closed))")
        #expect(closed?.reason?.contains("logged out") == true)
    }

    @Test func disablingAnAccountClosesItsSockets() async throws {
        let closed = try await closeFrame(of: .passenger) { harness, _ in
            try await harness.accounts.disable(username: "pat")
        }
        #expect(closed?.closeCode == .unknown(4003), "\(String(describing: closed))")
        #expect(closed?.reason?.contains("disabled") == true)
    }

    @Test func aPasswordChangedOnAnotherSessionClosesTheSocket() async throws {
        let closed = try await closeFrame(of: .passenger) { harness, _ in
            let other = try await harness.accounts.login(username: "pat", password: APIHarness.password)
            let session = try #require(try await harness.accounts.authenticateSession(bearer: other.token))
            try await harness.accounts.changePassword(on: session, current: APIHarness.password, new: "n3w-pass-word")
        }
        #expect(closed?.closeCode == .unknown(4004), "\(String(describing: closed))")
        #expect(closed?.reason?.contains("password was changed") == true)
    }

    @Test func aSocketClosesWhenItsSessionExpires() async throws {
        let closed = try await closeFrame(of: .administrator) { harness, _ in
            harness.clock.advance(by: AccountSettings().sessionLifetime + .seconds(1))
        }
        #expect(closed?.closeCode == .unknown(4002), "\(String(describing: closed))")
        #expect(closed?.reason?.contains("expired") == true)
    }
}
