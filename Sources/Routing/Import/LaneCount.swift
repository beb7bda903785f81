/// Reads the lanes of one direction of a way from its OSM tags.
///
/// `lanes:forward` / `lanes:backward` give a direction's lanes directly.
/// Otherwise `lanes` counts every lane of the way: on a one-way road they
/// all go one way; on a two-way road half go each way (`lanes=4` is two per
/// direction). Values that are not positive numbers count as untagged.
enum LaneCount {
    /// Lanes in one direction, or nil when the tags do not say.
    /// - Parameters:
    ///   - tags: the way's tags.
    ///   - forward: the direction along the way's node order (else against it).
    ///   - oneWay: whether the way is open in one direction only.
    static func perDirection(_ tags: [String: String], forward: Bool, oneWay: Bool) -> Double? {
        if let directed = tags[forward ? "lanes:forward" : "lanes:backward"].flatMap(count) { return directed }
        guard let total = tags["lanes"].flatMap(count) else { return nil }
        return oneWay ? total : total / 2
    }

    /// A positive lane count (`2`, `2.5`; the first value of `2;3`).
    private static func count(_ value: String) -> Double? {
        let first = value.split(separator: ";").first?.trimmingWhitespace() ?? ""
        guard let number = Double(first), number > 0, number.isFinite else { return nil }
        return number
    }
}
