/// A file `mytaxi serve` was given cannot be used: the service does not start.
public struct ServiceStartError: Error, CustomStringConvertible {
    /// The file, as given.
    public let file: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "\(file): \(reason)" }
}
