import Foundation
import Routing

extension TripScore {
    /// "MdAPE 12.3 %, RMSLE 0.141, median ratio 0.97 (300 trips)".
    public var text: String {
        String(format: "MdAPE %.1f %%, RMSLE %.3f, median ratio %.2f (%d trips)",
               medianAbsolutePercentageError * 100, rootMeanSquaredLogError, medianRatio, trips)
    }
}

extension LearningCheckpoint {
    /// "24 h", "0.25 h": whole hours without decimals, others with as few as they need.
    static func hoursText(_ hours: Double) -> String {
        hours == hours.rounded() ? String(format: "%.0f h", hours) : String(format: "%g h", (hours * 100).rounded() / 100)
    }

    /// One line for standard error as the run reaches the checkpoint.
    public var progressLine: String {
        let label = Self.hoursText(hours)
        var line = String(repeating: " ", count: max(0, 8 - label.count)) + label + ": \(matchedFixes) fixes matched"
        if let randomTrips { line += "; random trips \(randomTrips.text)" }
        if let measuredTrips { line += String(format: "; measured trips RMSLE %.3f", measuredTrips.rootMeanSquaredLogError) }
        return line
    }
}

extension LearningReport {
    /// The report as text: a table per checkpoint, then incidents and costs.
    public var text: String {
        var lines = [String(format: "Learning from %d taxis, GPS noise %.0f m, %.0f %% of fixes lost, seed %llu",
                            settings.taxis, settings.gpsNoiseMetres, settings.dropRate * 100, settings.seed), ""]
        lines.append("| simulated | random trips, learned | random trips, start profile | measured trips, learned | fixes matched | unmatched | cells | overhead |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for checkpoint in checkpoints {
            let unmatched = checkpoint.unmatchedFixes.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            lines.append("| \(LearningCheckpoint.hoursText(checkpoint.hours)) | \(checkpoint.randomTrips?.short ?? "-") | "
                         + "\(checkpoint.builtInRandomTrips?.short ?? "-") | \(checkpoint.measuredTrips?.short ?? "-") | "
                         + "\(checkpoint.matchedFixes) | \(unmatched) | \(checkpoint.learnedCells) | "
                         + String(format: "%.0f s |", checkpoint.tripOverheadSeconds))
        }
        lines.append("")
        if let trueProfileOnMeasuredTrips { lines.append("Measured trips, true profile: \(trueProfileOnMeasuredTrips.text)") }
        if let builtInOnMeasuredTrips { lines.append("Measured trips, start profile: \(builtInOnMeasuredTrips.text)") }
        for incident in incidents {
            let within = incident.minutesUntilWithin20Percent.map { String(format: "%.0f min", $0) } ?? "not during the incident"
            let avoided = incident.probesWithShorterDetour == 0 ? "no probe had a shorter detour"
                : incident.minutesUntilAvoided.map { String(format: "%.0f min", $0) } ?? "not during the incident"
            let atStart = incident.errorAtStart.map { String(format: "%.0f %%", $0 * 100) } ?? "-"
            lines.append(String(format: "Incident on %@ (%d edges, speed × %.2f, %d probe trips slowed 25 %% or more): ETA error %@ at its start, within 20 %% after %@; avoided after %@",
                                incident.road, incident.edges, incident.factor, incident.probes, atStart, within, avoided))
        }
        lines.append(String(format: "Matching: %.0f fixes/s on one core; re-customization: %.1f ms (median), %.1f ms of CPU",
                            matchingFixesPerSecond, recustomizationSeconds * 1000, recustomizationCPUSeconds * 1000))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension TripScore {
    /// "12.3 % / 0.141 / 0.97": MdAPE, RMSLE, median ratio.
    var short: String {
        String(format: "%.1f %% / %.3f / %.2f", medianAbsolutePercentageError * 100, rootMeanSquaredLogError, medianRatio)
    }
}
