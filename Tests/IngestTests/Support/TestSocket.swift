import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback socket for listener tests: what a terminal does, with
/// a receive timeout so that "no answer" is a test outcome, not a hang.
final class TestSocket {
    let descriptor: Int32

    /// Connects over TCP to 127.0.0.1:`port`.
    static func tcp(port: Int, receiveBuffer: Int? = nil) throws -> TestSocket {
        try TestSocket(type: Int32(SOCK_STREAM.rawValue), receiveBuffer: receiveBuffer).connected(to: port)
    }

    /// A UDP socket whose datagrams go to 127.0.0.1:`port`.
    static func udp(port: Int) throws -> TestSocket {
        try TestSocket(type: Int32(SOCK_DGRAM.rawValue), receiveBuffer: nil).connected(to: port)
    }

    private func connected(to port: Int) throws -> TestSocket {
        // NIO builds the address: a sockaddr_in written field by field here
        // resolved its members to NIO's C module or to Glibc depending on
        // the build order, which MemberImportVisibility then refused.
        let address = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        let result = address.withSockAddr { pointer, size in connect(descriptor, pointer, socklen_t(size)) }
        guard result == 0 else { throw TestSocketError("connect to port \(port): errno \(errno)") }
        return self
    }

    private init(type: Int32, receiveBuffer: Int?) throws {
        descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw TestSocketError("socket: errno \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    deinit { close(descriptor) }

    /// Closes the connection now, as a terminal hanging up.
    func closeNow() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Sends all of `text` (blocking).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestSocketError("send: errno \(errno)") }
            sent += n
        }
    }

    /// Sends what the kernel takes now without blocking; the bytes sent
    /// (0 when its buffers are full).
    func sendWithoutBlocking(_ bytes: [UInt8]) -> Int {
        max(0, bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) })
    }

    /// What arrives within `timeout` seconds: nil on timeout, "" when the
    /// peer closed the connection.
    func receive(timeout: Double) -> String? {
        var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, Int32(timeout * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = recv(descriptor, &buffer, buffer.count, 0)
        return n <= 0 ? "" : String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// Reads and drops whatever has arrived, without waiting.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    /// Reads until `text` has arrived in all, or `timeout` seconds passed;
    /// everything read.
    func receive(until text: String, timeout: Double) -> String {
        var received = ""
        let deadline = Date().addingTimeInterval(timeout)
        while !received.contains(text), Date() < deadline {
            guard let chunk = receive(timeout: deadline.timeIntervalSinceNow), !chunk.isEmpty else { break }
            received += chunk
        }
        return received
    }
}

struct TestSocketError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
