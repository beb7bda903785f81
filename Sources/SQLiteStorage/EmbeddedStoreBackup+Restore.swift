import Foundation
import GRDB
import ZIPFoundation

extension EmbeddedStoreBackup {
    /// Restores the backup `archivePath` into the data directory
    /// `directory`, which `mytaxi serve --data-dir` then starts on as it is.
    ///
    /// The directory must hold no store (it is created when missing; other
    /// files, such as a devices file, may be there): restoring over a store
    /// would mix two histories. The archive's manifest is read first; each
    /// copy it lists is unpacked (its ZIP checksum verified) into a folder
    /// of its own inside `directory`, checked against the manifest's size,
    /// passed through `PRAGMA integrity_check`, counted again against the
    /// manifest's counts, and given back the WAL mode the service runs its
    /// files in. Only once every copy passed are they moved into
    /// `directory`, so a refused or failed restore leaves no store there.
    ///
    /// Names in the archive are never used as paths: only the files of
    /// ``fileNames`` are unpacked, each to its own name.
    ///
    /// - Parameters:
    ///   - archivePath: a backup written by ``backUp(dataDirectory:to:replacing:mytaxiVersion:progress:)``.
    ///   - directory: the new data directory.
    ///   - progress: hears of each file once it passed its checks.
    /// - Returns: the backup's manifest.
    /// - Throws: ``EmbeddedStoreBackupError``: `inputUnreadable`,
    ///   `outputUnwritable`, `targetHoldsStore`, `notABackup`, `damaged` or
    ///   `failed`; no store file was left in `directory` then.
    @discardableResult
    public static func restore(
        from archivePath: String, into directory: String, progress: (EmbeddedStoreManifest.File) -> Void = { _ in }
    ) throws(EmbeddedStoreBackupError) -> EmbeddedStoreManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: archivePath, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: archivePath) else {
            throw .inputUnreadable(path: archivePath, reason: isDirectory.boolValue ? "it is a directory" : "no such readable file")
        }
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw .outputUnwritable(path: directory, reason: "it is a file, not a data directory")
        }
        try refuseStore(in: directory)
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: archivePath), accessMode: .read)
        } catch {
            throw .damaged(path: archivePath, reason: "it cannot be read as a ZIP archive (\(Self.zipReason(error)))")
        }
        let manifest = try readManifest(of: archive, at: archivePath)
        for file in manifest.files where archive[file.name] == nil {
            throw .damaged(path: archivePath, reason: "its manifest lists \(file.name), which it holds no copy of")
        }

        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .outputUnwritable(path: directory, reason: Self.reason(error))
        }
        let unpacked = directory + "/.restoring-" + UUID().uuidString.prefix(8)
        do {
            try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: false)
        } catch {
            throw .outputUnwritable(path: directory, reason: Self.reason(error))
        }
        defer { try? FileManager.default.removeItem(atPath: unpacked) }
        for file in manifest.files {
            try unpack(file, from: archive, at: archivePath, to: unpacked + "/" + file.name)
            progress(file)
        }
        try refuseStore(in: directory)
        var moved: [String] = []
        do {
            for file in manifest.files {
                let target = directory + "/" + file.name
                guard rename(unpacked + "/" + file.name, target) == 0 else { throw SystemCallError(errno, "moving \(file.name) into \(directory)") }
                moved.append(target)
            }
            try syncFile(directory)
        } catch {
            for path in moved { try? FileManager.default.removeItem(atPath: path) }
            throw .failed(reason: "the restore into \(directory) failed, and nothing of it was kept: \(Self.reason(error))")
        }
        return manifest
    }

    /// Throws ``EmbeddedStoreBackupError/targetHoldsStore(directory:files:)``
    /// when `directory` holds a file of a store: a database, or the
    /// write-ahead log or journal one left (named only without its database).
    private static func refuseStore(in directory: String) throws(EmbeddedStoreBackupError) {
        let exists = { (name: String) in FileManager.default.fileExists(atPath: directory + "/" + name) }
        let held = fileNames.flatMap { name in
            exists(name) ? [name] : [name + "-wal", name + "-shm", name + "-journal"].filter(exists)
        }
        guard held.isEmpty else { throw .targetHoldsStore(directory: directory, files: held) }
    }

    /// The manifest of `archive`, checked: of this format, a version this
    /// code reads, naming each known file at most once.
    private static func readManifest(of archive: Archive, at path: String) throws(EmbeddedStoreBackupError) -> EmbeddedStoreManifest {
        guard let entry = archive[manifestName] else {
            throw .notABackup(path: path, reason: "it holds no \(manifestName)")
        }
        guard entry.uncompressedSize <= 1 << 20 else {
            throw .damaged(path: path, reason: "its \(manifestName) claims \(entry.uncompressedSize) bytes, more than a manifest has")
        }
        var data = Data()
        let manifest: EmbeddedStoreManifest
        do {
            _ = try archive.extract(entry) { data.append($0) }
            manifest = try EmbeddedStoreManifest.read(data)
        } catch {
            throw .damaged(path: path, reason: "its \(manifestName) cannot be read (\(Self.zipReason(error)))")
        }
        guard manifest.format == EmbeddedStoreManifest.formatName else {
            throw .notABackup(path: path, reason: "its \(manifestName) is of \"\(manifest.format)\"")
        }
        guard manifest.formatVersion <= EmbeddedStoreManifest.currentFormatVersion else {
            throw .notABackup(
                path: path,
                reason: "it was written by a newer mytaxi (\(manifest.mytaxiVersion ?? "unknown version"), format version "
                    + "\(manifest.formatVersion); this one reads up to \(EmbeddedStoreManifest.currentFormatVersion))")
        }
        let names = manifest.files.map(\.name)
        if let unknown = names.first(where: { !fileNames.contains($0) }) {
            throw .damaged(path: path, reason: "its manifest lists \(unknown), which is no file of an embedded store")
        }
        guard Set(names).count == names.count, !names.isEmpty else {
            throw .damaged(path: path, reason: "its manifest lists \(names.isEmpty ? "no file" : "a file twice")")
        }
        return manifest
    }

    /// Unpacks the copy of `file` to `destination` and checks it: the ZIP
    /// checksum, the manifest's size, SQLite's integrity check and the
    /// manifest's counts; then puts it in WAL mode.
    private static func unpack(
        _ file: EmbeddedStoreManifest.File, from archive: Archive, at path: String, to destination: String
    ) throws(EmbeddedStoreBackupError) {
        guard let entry = archive[file.name] else {
            throw .damaged(path: path, reason: "it holds no copy of \(file.name)")
        }
        do {
            _ = try archive.extract(entry, to: URL(fileURLWithPath: destination))
        } catch let error as Archive.ArchiveError {
            throw .damaged(path: path, reason: "the copy of \(file.name) cannot be unpacked (\(Self.zipReason(error)))")
        } catch let error as POSIXError {
            // Writing the copy failed (a full disk): the archive may be whole.
            throw .failed(reason: "unpacking \(file.name) failed, and nothing was restored: \(Self.reason(error))")
        } catch let error as CocoaError {
            throw .failed(reason: "unpacking \(file.name) failed, and nothing was restored: \(Self.reason(error))")
        } catch {
            // The inflater's own errors, which ZIPFoundation does not make public.
            throw .damaged(path: path, reason: "the copy of \(file.name) cannot be unpacked: its compressed data is corrupt (\(error))")
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int64) ?? -1
        guard bytes == file.bytes else {
            throw .damaged(path: path, reason: "the copy of \(file.name) has \(bytes) bytes where its manifest says \(file.bytes)")
        }
        do {
            let database = try DatabaseQueue(path: destination)
            let problems = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard problems == ["ok"] else {
                throw EmbeddedStoreBackupError.damaged(
                    path: path, reason: "the copy of \(file.name) fails SQLite's integrity check: \(problems.prefix(3).joined(separator: "; "))")
            }
            let counts = try database.read { db in try EmbeddedStoreManifest.Counts.count(file: file.name, in: db) }
            guard counts == file.counts else {
                throw EmbeddedStoreBackupError.damaged(
                    path: path, reason: "the copy of \(file.name) holds \(counts) where its manifest says \(file.counts)")
            }
            try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try database.close()
        } catch let error as EmbeddedStoreBackupError {
            throw error
        } catch let error as DatabaseError {
            throw .damaged(path: path, reason: "the copy of \(file.name) cannot be read as an SQLite database (\(Self.reason(error)))")
        } catch {
            throw .failed(reason: "checking \(file.name) failed, and nothing was restored: \(Self.reason(error))")
        }
    }

    /// What a ZIP reader's error means, in words.
    private static func zipReason(_ error: any Error) -> String {
        guard let error = error as? Archive.ArchiveError else { return reason(error) }
        return switch error {
        case .invalidCRC32: "its checksum does not match: the data was changed or damaged"
        case .missingEndOfCentralDirectoryRecord: "the end of its directory is missing: the file is truncated or no ZIP archive"
        case .unreadableArchive: "the file cannot be opened as a ZIP archive"
        case .invalidEntrySize, .invalidLocalHeaderSize, .invalidLocalHeaderDataOffset, .invalidCentralDirectoryOffset,
             .invalidCentralDirectorySize, .invalidCentralDirectoryEntryCount:
            "its directory is inconsistent (\(error)): the file is damaged"
        default: "\(error)"
        }
    }
}
