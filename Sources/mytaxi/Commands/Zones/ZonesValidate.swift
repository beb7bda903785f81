import ArgumentParser
import GeoKit
import JSONKit
import ServeConfig
import Zones

extension Mytaxi.Zones {
    /// `mytaxi zones validate FILE`: checks a zone file against every rule.
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a zone file: every problem is listed with its feature.",
            discussion: """
                Exit status: 0 when the file is valid (one summary line; repairs made on load, \
                such as ring winding or repeated points, are listed on standard error), \
                1 when it has problems (one line per problem, "ID: problem", where ID is the \
                feature's id or #N, its 0-based position in "features"), 2 when the file cannot \
                be read or is not JSON.
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @OptionGroup var zoneFile: ZoneFileArguments

        @Flag(help: "Print the result as one JSON object.")
        var json = false

        @Option(help: "Repairs to list on standard error at most (all are in --json).")
        var maxWarnings = 20

        func run() throws {
            do {
                let loaded = try ZoneFileLoader.load(path: file, options: zoneFile.options)
                if json {
                    print(report(valid: true, zones: loaded.zoneSet.zones.count, problems: [], warnings: loaded.warnings))
                } else {
                    printWarnings(loaded.warnings)
                    print(summary(loaded.zoneSet, warnings: loaded.warnings.count))
                }
            } catch .invalid(let problems, let warnings) {
                if json {
                    print(report(valid: false, zones: nil, problems: problems, warnings: warnings))
                } else {
                    printWarnings(warnings)
                    for problem in problems { print(problem.description) }
                }
                throw ExitCode(1)
            } catch {
                if json {
                    print(JSONValue.object(["valid": .bool(false), "file": .string(file),
                                            "error": .string(error.description)]).serialized)
                } else {
                    printError(errorLine(error, file: file))
                }
                throw ExitCode(2)
            }
        }

        private func summary(_ zoneSet: ZoneSet, warnings: Int) -> String {
            let multi = zoneSet.zones.filter { $0.geometry.typeName == "MultiPolygon" }.count
            let box = zoneSet.boundingBox.map { ", bbox \($0)" } ?? ""
            return "\(file): valid, \(zoneSet.zones.count) zones (\(zoneSet.zones.count - multi) Polygon, "
                + "\(multi) MultiPolygon)\(box), \(warnings) repair(s)"
        }

        private func printWarnings(_ warnings: [ZoneProblem]) {
            for warning in warnings.prefix(maxWarnings) { printError("warning: \(warning)") }
            if warnings.count > maxWarnings {
                printError("warning: ... and \(warnings.count - maxWarnings) more (see --json)")
            }
        }

        private func report(valid: Bool, zones: Int?, problems: [ZoneProblem], warnings: [ZoneProblem]) -> String {
            func entries(_ list: [ZoneProblem]) -> JSONValue {
                .array(list.map { .object(["id": .string($0.subject), "problem": .string($0.message)]) })
            }
            var object: [String: JSONValue] = [
                "valid": .bool(valid), "file": .string(file),
                "problems": entries(problems), "warnings": entries(warnings),
            ]
            if let zones { object["zones"] = .number(Double(zones)) }
            return JSONValue.object(object).serialized
        }
    }
}
