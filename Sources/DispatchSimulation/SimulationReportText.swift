import Foundation

/// A simulation report as the text `mytaxi dispatch simulate` prints: one
/// line per zone, one for the whole city, then the wait-estimate error.
public enum SimulationReportText {
    /// The report as aligned columns.
    public static func render(_ report: SimulationReport) -> String {
        let width = max(8, (report.zones.map(\.zone.count).max() ?? 0) + 1)
        var lines = [
            "\(report.taxis) taxis, \(format(report.requestsPerHour)) requests/hour, \(format(report.hours)) h, "
                + "refusal rate \(format(report.refusalRate)), seed \(report.seed)",
            row(["zone", "requests", "offers", "refusals", "served", "cancelled", "wait p50 s", "wait p90 s", "est. MdAPE %", "est. bias s"],
                zoneWidth: width),
        ]
        for zone in report.zones { lines.append(row(zone.zone, zone.figures, zoneWidth: width)) }
        lines.append(row("all", report.overall, zoneWidth: width))
        lines.append(
            "wait told at request vs actual, over \(report.overall.estimated) served requests: MdAPE "
                + "\(report.overall.estimateMdAPEPercent.map(format) ?? "-") %, bias \(report.overall.estimateBiasSeconds.map(format) ?? "-") s "
                + "(told minus actual)")
        if report.refusedOutsideServiceArea > 0 {
            lines.append("\(report.refusedOutsideServiceArea) requests refused: pickup outside the service area")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ zone: String, _ figures: SimulationReport.Figures, zoneWidth: Int) -> String {
        row([
            zone, "\(figures.requests)", "\(figures.offers)", "\(figures.refusals)", "\(figures.served)", "\(figures.cancelled)",
            figures.waitP50Seconds.map(format) ?? "-", figures.waitP90Seconds.map(format) ?? "-",
            figures.estimateMdAPEPercent.map(format) ?? "-", figures.estimateBiasSeconds.map(format) ?? "-",
        ], zoneWidth: zoneWidth)
    }

    /// The cells as one line: the zone id whole in a column as wide as the
    /// longest (two ids sharing a prefix stay apart), the figures right-aligned.
    private static func row(_ cells: [String], zoneWidth: Int) -> String {
        cells.enumerated().map { index, cell in
            index == 0
                ? cell.padding(toLength: zoneWidth, withPad: " ", startingAt: 0)
                : String(repeating: " ", count: max(0, 13 - cell.count)) + cell
        }.joined()
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
