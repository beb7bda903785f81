import Accounts
import ArgumentParser

/// Runs an accounts command's change: a refusal prints every problem on
/// standard error, naming its field where there is one, and exits 1.
func exitingOnAccountError<T>(_ change: () async throws(AccountError) -> T) async throws -> T {
    do throws(AccountError) {
        return try await change()
    } catch .invalid(let problems), .notForRole(let problems) {
        for problem in problems { printError("error: \(problem.field.rawValue): \(problem.problem)") }
        throw ExitCode(1)
    } catch {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}
