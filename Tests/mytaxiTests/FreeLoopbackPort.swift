import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that nothing listens on now, for a service that
/// must be told its own address before it starts (`serve --advertise`): the
/// OS picks it for a socket that is then closed. Another process could take
/// it in between; on a test machine's loopback that does not happen in practice.
enum FreeLoopbackPort {
    static func pick() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServiceProcessError("no socket for a free port: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Glibc.bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard bound else { throw ServiceProcessError("cannot bind a loopback socket for a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
