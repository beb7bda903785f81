import Foundation

/// Why a TCP listener could not accept a waiting connection, as the label
/// `reason` of `mytaxi_accept_failures_total`.
///
/// The connection stays in the kernel's listen queue while the listener
/// backs off; a terminal meanwhile sees a connection that never answers its
/// handshake, so an operator needs the count and its cause to act (most
/// often: raise the open-file limit).
public enum AcceptFailureReason: String, CaseIterable, Sendable {
    /// `EMFILE`: the process holds as many descriptors as its open-file limit allows.
    case tooManyOpenFiles = "too_many_open_files"
    /// `ENFILE`: the whole system's file table is full.
    case systemFileTableFull = "system_file_table_full"
    /// `ENOBUFS` or `ENOMEM`: the kernel had no memory for the socket.
    case outOfMemory = "out_of_memory"
    /// `ECONNABORTED`: the client gave up before it was accepted.
    case connectionAborted = "connection_aborted"
    /// Any other error `accept` returned.
    case other

    /// The reason for the `errno` that `accept` failed with.
    public init(errno code: CInt) {
        switch code {
        case EMFILE: self = .tooManyOpenFiles
        case ENFILE: self = .systemFileTableFull
        case ENOBUFS, ENOMEM: self = .outOfMemory
        case ECONNABORTED: self = .connectionAborted
        default: self = .other
        }
    }

    /// What an operator can do about it, for the log.
    var advice: String {
        switch self {
        case .tooManyOpenFiles:
            "the open-file limit is reached: raise the hard limit (ulimit -Hn, LimitNOFILE= under systemd) or lower --max-connections"
        case .systemFileTableFull: "the system's file table is full (fs.file-max)"
        case .outOfMemory: "the kernel is short of memory for sockets"
        case .connectionAborted: "the client gave up before it was accepted"
        case .other: "see the error"
        }
    }
}
