import Dispatch
import HummingbirdBcrypt

/// bcrypt, run off Swift's cooperative thread pool: a hash or a check
/// takes about 0.1 s of CPU on purpose (see
/// ``AccountSettings/bcryptCost``), and on the service's two cores two
/// logins would otherwise stall every other task (dispatch, push) for that
/// long. Dispatch's global queue runs them on threads of its own, about as
/// many at once as there are cores.
struct PasswordHasher: Sendable {
    /// log2 of bcrypt's rounds.
    let cost: UInt8

    /// The bcrypt hash of `password`, with a fresh salt.
    func hash(_ password: String) async -> String {
        await offPool { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    func verify(_ password: String, hash: String) async -> Bool {
        await offPool { Bcrypt.verify(password, hash: hash) }
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
