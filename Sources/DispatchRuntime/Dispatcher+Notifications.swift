import Storage

extension Dispatcher {
    /// The notifications stored for `recipient` and not yet handed over,
    /// oldest first, at most `limit` (SPEC D7). A stored notification that
    /// no longer decodes is skipped: it cannot be told, and it must not
    /// hold up the ones after it.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be read.
    public nonisolated func undeliveredNotices(for recipient: String, limit: Int = 500) async throws(DispatcherError) -> [PersonalNotice] {
        do {
            return try await log.undeliveredNotifications(for: recipient, limit: limit).compactMap { stored in
                (try? DispatchLogCoding.decode(Notice.self, from: stored.payload)).map { notice in
                    var numbered = notice
                    numbered.id = stored.key.id
                    return PersonalNotice(recipient: stored.recipient, key: stored.key, notice: numbered)
                }
            }
        } catch {
            throw .storage(error)
        }
    }

    /// Records that each recipient has been handed its notifications up to
    /// and including the key given, so they are not handed over again.
    /// - Throws: ``DispatcherError/storage(_:)`` when the log cannot be written.
    public nonisolated func markDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(DispatcherError) {
        do {
            try await log.markNotificationsDelivered(marks)
        } catch {
            throw .storage(error)
        }
    }
}
