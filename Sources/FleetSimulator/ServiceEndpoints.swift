/// Where the running service listens, and the administrator who makes the
/// simulation's accounts.
public struct ServiceEndpoints: Sendable, Equatable {
    /// The host of every listener (an address or a name).
    public var host: String
    /// The HTTP API's port.
    public var httpPort: Int
    /// The TCP port of each terminal protocol the simulated fleet speaks.
    public var terminalPorts: [TerminalKind: Int]
    /// The administrator's username.
    public var administrator: String
    /// The administrator's password, which the simulated accounts get too.
    public var password: String

    /// The endpoints of a service on `host`.
    public init(host: String, httpPort: Int, terminalPorts: [TerminalKind: Int], administrator: String, password: String) {
        self.host = host
        self.httpPort = httpPort
        self.terminalPorts = terminalPorts
        self.administrator = administrator
        self.password = password
    }
}
