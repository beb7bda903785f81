import ArgumentParser
import Foundation

/// The checks every numeric and address setting of `serve` passes, with an
/// error that names the flag and what it takes.
enum SettingChecks {
    /// `HOST:PORT` (an IPv6 host in brackets: `[::1]:9464`), the port 0...65535.
    static func hostAndPort(_ text: String, flag: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
        else {
            throw ValidationError("--\(flag) must be HOST:PORT, e.g. 127.0.0.1:9464, not '\(text)'")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else { throw ValidationError("--\(flag) must name a host before the port, not '\(text)'") }
        return (host, port)
    }

    /// A duration in seconds: finite, at least a millisecond and at most a
    /// week (a NaN would pass every comparison and trap where it becomes a
    /// timer; the timers count whole milliseconds, so less would be a
    /// deadline of zero that closes every connection as it opens).
    static func seconds(_ value: Double, flag: String) throws -> Double {
        guard value.isFinite, value >= 0.001, value <= 7 * 24 * 3600 else {
            throw ValidationError(
                "--\(flag) must be a number of seconds from 0.001 to 604800 (a week), not '\(value)'")
        }
        return value
    }

    /// A connection count: 1 or more.
    static func count(_ value: Int, flag: String) throws -> Int {
        guard value >= 1, value <= 10_000_000 else {
            throw ValidationError("--\(flag) must be a whole number from 1 to 10000000, not '\(value)'")
        }
        return value
    }

    /// A TCP port (0: the OS picks one).
    static func port(_ value: Int, flag: String) throws -> Int {
        guard (0...65535).contains(value) else {
            throw ValidationError("--\(flag) must be a port number 0...65535, not '\(value)'")
        }
        return value
    }
}
