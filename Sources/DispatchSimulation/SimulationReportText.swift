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

    /// A run with sharing and the same demand without (SPEC D10): the
    /// first run's report, then what sharing changed for the fleet and for
    /// the riders who asked to share.
    public static func render(_ shared: SimulationReport, comparedWith alone: SimulationReport) -> String {
        var text = render(shared)
        guard let with = shared.sharing, let without = alone.sharing else { return text }
        func change(_ new: Double, _ old: Double) -> String {
            old > 0 ? String(format: "%+.1f %%", (new - old) / old * 100) : "-"
        }
        func seconds(_ value: Double?) -> String { value.map(format) ?? "-" }
        let share = with.optedIn > 0 ? Double(with.matched) / Double(with.optedIn) * 100 : 0
        text += """
            sharing: \(with.optedIn) requests asked to share, \(with.matched) joined a taxi on a shared ride (\(format(share)) %)
            \(pad("", 34))\(pad("with sharing", 14))\(pad("without", 14))\(pad("change", 10))
            \(pad("fleet vehicle-km", 34))\(pad(format(with.vehicleKilometres), 14))\(pad(format(without.vehicleKilometres), 14))\(pad(change(with.vehicleKilometres, without.vehicleKilometres), 10))
            \(pad("fleet vehicle-hours", 34))\(pad(format(with.vehicleHours), 14))\(pad(format(without.vehicleHours), 14))\(pad(change(with.vehicleHours, without.vehicleHours), 10))
            \(pad("sharing riders' vehicle-km", 34))\(pad(format(with.optInVehicleKilometres), 14))\(pad(format(without.optInVehicleKilometres), 14))\(pad(change(with.optInVehicleKilometres, without.optInVehicleKilometres), 10))
            \(pad("sharing riders' vehicle-hours", 34))\(pad(format(with.optInVehicleHours), 14))\(pad(format(without.optInVehicleHours), 14))\(pad(change(with.optInVehicleHours, without.optInVehicleHours), 10))
            \(pad("sharing riders served", 34))\(pad("\(with.optInServed)", 14))\(pad("\(without.optInServed)", 14))
            \(pad("requests served", 34))\(pad("\(shared.overall.served)", 14))\(pad("\(alone.overall.served)", 14))\(pad(change(Double(shared.overall.served), Double(alone.overall.served)), 10))
            \(pad("sharing riders' wait mean s", 34))\(pad(seconds(with.waitMeanSeconds), 14))\(pad(seconds(without.waitMeanSeconds), 14))
            \(pad("sharing riders' wait p90 s", 34))\(pad(seconds(with.waitP90Seconds), 14))\(pad(seconds(without.waitP90Seconds), 14))
            \(pad("added trip delay mean s", 34))\(pad(seconds(with.addedDelayMeanSeconds), 14))\(pad(seconds(without.addedDelayMeanSeconds), 14))
            \(pad("added trip delay p90 s", 34))\(pad(seconds(with.addedDelayP90Seconds), 14))\(pad(seconds(without.addedDelayP90Seconds), 14))
            \(pad("riders beyond their bounds", 34))\(pad("\(with.beyondBounds)", 14))\(pad("\(without.beyondBounds)", 14))

            """
        return text
    }

    /// `text` left-aligned in `width` columns.
    private static func pad(_ text: String, _ width: Int) -> String {
        text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0)
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
