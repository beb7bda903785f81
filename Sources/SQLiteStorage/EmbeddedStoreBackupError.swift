/// Why a backup of the embedded store (``EmbeddedStoreBackup``) or its
/// restore was not made. Each case says what was not done, so that the
/// command line can print it as it is; ``isMisuse`` tells a mistake in what
/// was asked (exit status 2) from a refusal or a failure (exit status 1).
public enum EmbeddedStoreBackupError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `directory` holds none of the store's files (a mistyped path, or a
    /// service on PostgreSQL): there is nothing to back up.
    case noStore(directory: String)
    /// The archive `path` exists already and was not to be replaced.
    case outputExists(path: String)
    /// The archive cannot be written at `path` (no such folder, no permission).
    case outputUnwritable(path: String, reason: String)
    /// The archive `path` to restore from cannot be read (no such file, no permission).
    case inputUnreadable(path: String, reason: String)
    /// The data directory to restore into holds a store already: restoring
    /// over it would mix two histories. `files` names what is there.
    case targetHoldsStore(directory: String, files: [String])
    /// The file `path` is not a backup of an embedded store, or not of a
    /// format this version reads.
    case notABackup(path: String, reason: String)
    /// The archive `path` is damaged: a copy in it is truncated, fails its
    /// checksum or SQLite's integrity check, or does not hold what its
    /// manifest says. Nothing was restored.
    case damaged(path: String, reason: String)
    /// SQLite or the file system failed while copying or unpacking; nothing
    /// was left that looks whole.
    case failed(reason: String)

    /// True when the request itself was wrong (no store in the directory,
    /// an archive already there, a path that cannot be read or written),
    /// rather than the data or the machine refusing it.
    public var isMisuse: Bool {
        switch self {
        case .noStore, .outputExists, .outputUnwritable, .inputUnreadable: true
        case .targetHoldsStore, .notABackup, .damaged, .failed: false
        }
    }

    public var description: String {
        switch self {
        case .noStore(let directory):
            "no embedded store in \(directory) (none of \(EmbeddedStoreBackup.fileNames.joined(separator: ", "))); "
                + "nothing was backed up"
        case .outputExists(let path):
            "\(path) exists already; give another file, or --force to replace it"
        case .outputUnwritable(let path, let reason):
            "cannot write the backup \(path): \(reason)"
        case .inputUnreadable(let path, let reason):
            "cannot read the backup \(path): \(reason)"
        case .targetHoldsStore(let directory, let files):
            "\(directory) holds a store already (\(files.joined(separator: ", "))); "
                + "restore into a new or empty data directory, so that two histories are never mixed; nothing was restored"
        case .notABackup(let path, let reason):
            "\(path) is not a backup of mytaxi's embedded store: \(reason); nothing was restored"
        case .damaged(let path, let reason):
            "the backup \(path) is damaged: \(reason); nothing was restored"
        case .failed(let reason):
            reason
        }
    }
}
