extension SpeedProfile {
    /// Free flow in every hour: travel times are the graph's own, with no
    /// congestion; only for those who ask for it (`--free-flow`).
    public static let freeFlow = SpeedProfile(uniform: 1)

    /// Which profile this is, in a few words for `graph info` and `graph
    /// build`: the built-in dense-city one, free flow, or one read from a
    /// file (fitted by `graph calibrate` or written by hand) with what it
    /// measured.
    public var summary: String {
        if self == .denseCity { return "built-in dense-city" }
        if self == .freeFlow { return "free flow" }
        var parts = ["from a file", "trip overhead \(Int(tripOverheadSeconds.rounded())) s"]
        if minorSignalDelaySeconds != 0 { parts.append("minor-signal delay \(Int(minorSignalDelaySeconds.rounded())) s") }
        if !zoneFactors.isEmpty { parts.append("zone factors: \(zoneFactors.count)") }
        return parts.joined(separator: ", ")
    }
}
