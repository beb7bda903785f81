import ArgumentParser
import Storage

/// `--role ROLE` takes a role's name, and the help lists them all.
extension Role: ExpressibleByArgument {}

/// `--state STATE` takes a state's name, and the help lists them all.
extension AccountState: ExpressibleByArgument {}
