import Foundation
import ServiceClock
import Storage

extension AccountService {
    /// Changes the password of the account logged in on `session`, when
    /// `current` is its password: every other session of the account ends
    /// at once (a stolen token stops working), this one goes on, and the
    /// account is told by e-mail, so that a change it did not make is seen.
    /// - Throws: ``AccountError/invalid(_:)`` naming the rules `new` breaks;
    ///   ``AccountError/wrongCurrentPassword``; ``AccountError/disabled``;
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func changePassword(on session: AuthenticatedSession, current: String, new: String) async throws(AccountError) -> AccountRecord {
        let problems = policy.problems(in: new).map { FieldProblem(field: .password, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let id = session.account.id
        let stored = try await storing { () async throws(StorageError) in try await store.account(id: id) }
        guard let stored else { throw .unknownAccount(username: session.account.username) }
        if stored.disabled { throw .disabled }
        guard await hasher.verify(current, hash: stored.passwordHash) else { throw .wrongCurrentPassword }
        let hash = await hasher.hash(new)
        let changed = try await storing { () async throws(StorageError) in
            try await store.changePassword(accountID: id, passwordHash: hash, keepingToken: session.tokenHash)
        }
        guard let changed else { throw .unknownAccount(username: session.account.username) }
        sessions.forget(accountID: id)
        sessionEnds.tell(.passwordChanged(accountID: id, kept: session.tokenHash))
        if let email = changed.email {
            let notice = EmailMessage(
                to: email, subject: "Your mytaxi password was changed",
                body: """
                    Hello \(changed.username),

                    the password of your mytaxi account was changed, and every other login of the account was ended.
                    If you did not change it, tell the service's administrators at once.
                    """)
            try await storing { () async throws(StorageError) in try await store.send(notice, at: clock.now) }
        }
        return changed
    }
}
