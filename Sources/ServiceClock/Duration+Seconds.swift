/// A duration as a number of seconds, for the clocks' arithmetic with `Date`.
extension Duration {
    /// The duration in seconds, fractions included.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
