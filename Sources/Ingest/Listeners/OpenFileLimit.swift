import Foundation

#if canImport(Glibc)
private let openFilesResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let openFilesResource = RLIMIT_NOFILE
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how
/// many terminals can be connected at once: every TCP connection is a file
/// descriptor.
///
/// Service managers often start processes with a soft limit of 1,024; past
/// it `accept` fails with `EMFILE` and terminals time out in their
/// handshake. The soft limit may be raised up to the hard limit without
/// privileges, so `mytaxi serve` does that at start (``raiseSoftToHard()``)
/// and says what room it has (``connectionCapacity``).
public struct OpenFileLimit: Sendable, Equatable {
    /// The limit in force: opening one more descriptor fails with `EMFILE`.
    public var soft: UInt64
    /// The ceiling of ``soft`` for an unprivileged process.
    public var hard: UInt64

    /// Descriptors kept for what is not a terminal connection: the archive
    /// and the other stores, the event loops, the HTTP clients of the API
    /// and the OsmAnd listener, the logs.
    public static let reservedDescriptors: UInt64 = 256

    /// A limit of `soft` and `hard` descriptors.
    public init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    /// The process's limit now.
    /// - Throws: ``OpenFileLimitError`` when the system does not tell.
    public static func current() throws(OpenFileLimitError) -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(openFilesResource, &limit) == 0 else { throw OpenFileLimitError(call: "getrlimit", errno: errno) }
        return OpenFileLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the process's soft limit to its hard limit; returns the limit
    /// before and after (the same when it was already there).
    /// - Throws: ``OpenFileLimitError`` when the limit cannot be read or set;
    ///   the limit in force is then unchanged.
    public static func raiseSoftToHard() throws(OpenFileLimitError) -> (before: OpenFileLimit, after: OpenFileLimit) {
        let before = try current()
        guard before.soft < before.hard else { return (before, before) }
        var raised = rlimit(rlim_cur: rlim_t(before.hard), rlim_max: rlim_t(before.hard))
        guard setrlimit(openFilesResource, &raised) == 0 else { throw OpenFileLimitError(call: "setrlimit", errno: errno) }
        return (before, try current())
    }

    /// About how many terminal connections fit under the soft limit beside
    /// the service's own descriptors (``reservedDescriptors``).
    public var connectionCapacity: UInt64 {
        soft > Self.reservedDescriptors ? soft - Self.reservedDescriptors : 0
    }

    /// The warning to log when `devices` terminals connected at once would
    /// not fit (fewer places than devices once ``reservedDescriptors`` are
    /// kept); nil when they fit.
    public func shortfallWarning(devices: Int) -> String? {
        guard connectionCapacity < UInt64(max(devices, 0)) else { return nil }
        return "the open-file limit of \(soft) leaves room for about \(connectionCapacity) terminal connections, "
            + "fewer than the \(devices) devices of the devices file (\(Self.reservedDescriptors) descriptors are kept for the service); "
            + "the others will not be accepted: raise the hard limit (ulimit -Hn, LimitNOFILE= under systemd) to at least "
            + "\(UInt64(devices) + Self.reservedDescriptors)"
    }
}

/// A system call on the open-file limit failed.
public struct OpenFileLimitError: Error, CustomStringConvertible, Equatable {
    /// `getrlimit` or `setrlimit`.
    public let call: String
    /// What it failed with.
    public let errno: CInt

    public var description: String { "\(call)(RLIMIT_NOFILE) failed: \(String(cString: strerror(errno)))" }
}
