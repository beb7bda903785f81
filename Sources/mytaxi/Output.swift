import Foundation

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A duration as seconds with two decimals, e.g. `0.42 s`.
func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(format: "%.2f s", Double(whole) + Double(attoseconds) / 1e18)
}

/// A duration as milliseconds with one decimal, e.g. `3.2 ms`.
func milliseconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    return String(format: "%.1f ms", (Double(whole) + Double(attoseconds) / 1e18) * 1000)
}
