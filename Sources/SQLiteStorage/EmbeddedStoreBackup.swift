import Foundation
import GRDB
import ZIPFoundation

/// A consistent copy of the embedded store (the SQLite files of a data
/// directory) taken while `mytaxi serve` runs on it, into one ZIP archive,
/// and its restore into a new data directory (`mytaxi db backup`,
/// `mytaxi db restore`).
///
/// Each file is copied with SQLite's online backup in one step: the copy
/// reads the file as of one moment (a WAL read transaction), so it is
/// consistent whatever the service commits meanwhile, and the service's
/// writers never wait for it (in WAL mode a reader blocks no writer). The
/// copy is switched to a rollback journal, so that it is one
/// self-contained file with no `-wal` beside it, counted
/// (``EmbeddedStoreManifest/Counts``), and deflated into the archive; one
/// copy at a time, so that the backup needs room for the archive and the
/// largest file, not for a second store.
///
/// The archive is written as `FILE.partial`, synced, and renamed to `FILE`
/// only once complete: a failed or interrupted backup never leaves a
/// `FILE` that looks whole.
///
/// ## The order of the copies
///
/// The files are copied one after the other, each at its own moment, in
/// the order of ``fileNames``, which is what makes the set whole:
///
/// - **The fix journal before the fix store.** A fix is committed to
///   `fixes-journal.sqlite`, and the background mover later copies it into
///   `fixes.sqlite` and only then deletes it from the journal. A fix
///   acknowledged before the journal's copy is either in that copy, or was
///   moved before it, and so is in the store's copy, taken later (the
///   store only gains moved fixes). A fix moved between the two copies is
///   in both: the archive takes that as a fix resent after a lost ACK and
///   returns it once. The other order could lose it: copied from the store
///   before it arrived there, and from the journal after it left.
/// - **The idempotent answers before the dispatch log,** and **the
///   dispatch log before the accounts and the zone sets.** A file is copied
///   after every file whose records name its records, so that the later
///   copy holds everything the earlier one points to: the dispatch log
///   records each command's `Idempotency-Key` itself (a command whose answer
///   is not in the earlier copy is still answered from the log), and it
///   names passengers, drivers and zones that the accounts and zone sets,
///   copied after it, then hold.
/// - **The learned speeds** point to nothing and come last.
///
/// Every write acknowledged before the backup started is therefore in it;
/// a write acknowledged while it ran may be.
public enum EmbeddedStoreBackup {
    /// The files of an embedded store, in the order a backup copies them
    /// (see the order of the copies above): those of
    /// ``SQLiteStoreReader/fileNames`` and the API's idempotent answers.
    public static let fileNames = [
        "fixes-journal.sqlite", "fixes.sqlite", "idempotent-answers.sqlite", "dispatch.sqlite", "accounts.sqlite", "zones.sqlite",
        "learned-speeds.sqlite",
    ]

    /// The manifest's name in the archive (``EmbeddedStoreManifest``).
    public static let manifestName = "manifest.json"

    /// Backs up the store in `dataDirectory` into the ZIP archive
    /// `archivePath`, while a service may run on it; every file of
    /// ``fileNames`` that is there is copied, in that order.
    ///
    /// - Parameters:
    ///   - dataDirectory: the data directory (`mytaxi serve --data-dir`).
    ///   - archivePath: the archive to write; refused when it exists unless `replacing`.
    ///   - replacing: whether an existing `archivePath` may be replaced (once the new one is complete).
    ///   - mytaxiVersion: the version recorded in the manifest.
    ///   - progress: hears of each file once its copy is in the archive.
    /// - Returns: the manifest written into the archive.
    /// - Throws: ``EmbeddedStoreBackupError``: `noStore`, `outputExists`,
    ///   `outputUnwritable` or `failed`; no `archivePath` was written then.
    @discardableResult
    public static func backUp(
        dataDirectory: String, to archivePath: String, replacing: Bool = false, mytaxiVersion: String? = nil,
        progress: (EmbeddedStoreManifest.File) -> Void = { _ in }
    ) throws(EmbeddedStoreBackupError) -> EmbeddedStoreManifest {
        let present = fileNames.filter { FileManager.default.fileExists(atPath: dataDirectory + "/" + $0) }
        guard !present.isEmpty else { throw .noStore(directory: dataDirectory) }
        if !replacing, FileManager.default.fileExists(atPath: archivePath) { throw .outputExists(path: archivePath) }
        let partial = archivePath + ".partial"
        let copies = archivePath + ".partial-copies"
        for leftOver in [partial, copies] where FileManager.default.fileExists(atPath: leftOver) {
            // What a killed backup left: never a whole archive, so nothing to keep.
            do { try FileManager.default.removeItem(atPath: leftOver) } catch {
                throw .outputUnwritable(path: archivePath, reason: "cannot remove \(leftOver), left by an earlier backup: \(error)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: false)
        } catch {
            throw .outputUnwritable(path: archivePath, reason: Self.reason(error))
        }
        defer { try? FileManager.default.removeItem(atPath: copies) }
        do {
            let manifest = try writeArchive(
                partial, of: dataDirectory, files: present, copies: copies, mytaxiVersion: mytaxiVersion, progress: progress)
            try syncFile(partial)
            guard rename(partial, archivePath) == 0 else { throw SystemCallError(errno, "renaming \(partial) to \(archivePath)") }
            try syncDirectory(of: archivePath)
            return manifest
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            if let error = error as? EmbeddedStoreBackupError { throw error }
            throw .failed(reason: "the backup of \(dataDirectory) failed, and no \(archivePath) was written: \(Self.reason(error))")
        }
    }

    /// Writes the archive `path`: each of `files` copied from `directory`
    /// through `copies`, then the manifest. The archive is closed when this returns.
    private static func writeArchive(
        _ path: String, of directory: String, files: [String], copies: String, mytaxiVersion: String?,
        progress: (EmbeddedStoreManifest.File) -> Void
    ) throws -> EmbeddedStoreManifest {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        } catch {
            throw EmbeddedStoreBackupError.outputUnwritable(path: path, reason: Self.reason(error))
        }
        let startedAt = Date()
        var copied: [EmbeddedStoreManifest.File] = []
        for name in files {
            let copy = copies + "/" + name
            let file = try copyFile(directory + "/" + name, to: copy, name: name)
            try archive.addEntry(with: name, fileURL: URL(fileURLWithPath: copy), compressionMethod: .deflate)
            try FileManager.default.removeItem(atPath: copy)
            copied.append(file)
            progress(file)
        }
        let manifest = EmbeddedStoreManifest(
            mytaxiVersion: mytaxiVersion, dataDirectory: URL(fileURLWithPath: directory).standardizedFileURL.path,
            startedAt: startedAt, finishedAt: Date(), files: copied)
        let json = try manifest.json()
        try archive.addEntry(
            with: manifestName, type: .file, uncompressedSize: Int64(json.count), compressionMethod: .deflate
        ) { position, size in
            json.subdata(in: Int(position)..<Int(position) + size)
        }
        return manifest
    }

    /// Copies the database `source` into a new file `destination` with
    /// SQLite's online backup in one step (one consistent read of the
    /// source, which blocks none of its writers), makes the copy a
    /// self-contained rollback-journal database, and counts what it holds.
    private static func copyFile(_ source: String, to destination: String, name: String) throws -> EmbeddedStoreManifest.File {
        var configuration = Configuration()
        // The service's writers hold their locks for a moment at a time.
        configuration.busyMode = .timeout(10)
        configuration.label = "mytaxi-backup-source"
        let sourceDatabase = try DatabaseQueue(path: source, configuration: configuration)
        let copy = try DatabaseQueue(path: destination)
        let copiedAt = Date()
        try sourceDatabase.backup(to: copy)
        try sourceDatabase.close()
        try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        let counts = try copy.read { db in try EmbeddedStoreManifest.Counts.count(file: name, in: db) }
        try copy.close()
        let bytes = try FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int64 ?? 0
        return EmbeddedStoreManifest.File(name: name, bytes: bytes, copiedAt: copiedAt, counts: counts)
    }

    /// Flushes the file at `path` to disk.
    static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw SystemCallError(errno, "opening \(path)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SystemCallError(errno, "syncing \(path)") }
    }

    /// Flushes the directory that holds `path`, so that a rename into it is on disk.
    static func syncDirectory(of path: String) throws {
        try syncFile(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// An error's words for a message: the system's for a file error, SQLite's for a database one.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as SystemCallError: error.description
        case let error as POSIXError: "\(error.code)"
        case let error as CocoaError: error.localizedDescription
        case let error as DatabaseError: error.message.map { "SQLite: \($0)" } ?? "\(error)"
        default: "\(error)"
        }
    }
}

/// A failed system call with its `errno` and what was being done.
struct SystemCallError: Error, CustomStringConvertible {
    /// The system's error number.
    let code: Int32
    /// What failed, e.g. `renaming a to b`.
    let action: String

    init(_ code: Int32, _ action: String) {
        self.code = code
        self.action = action
    }

    var description: String { "\(action): \(String(cString: strerror(code)))" }
}
