import Foundation

/// Errors reading a speed profile file, naming the line (1-based) and field.
public enum SpeedProfileError: Error, Equatable, CustomStringConvertible {
    /// A line does not have the three fields `road_class,hour_of_week,factor`.
    case wrongFieldCount(line: Int, count: Int)
    /// A field's value is not valid; `reason` says what was expected.
    case invalidField(line: Int, field: String, value: String, reason: String)

    public var description: String {
        switch self {
        case let .wrongFieldCount(line, count):
            "line \(line): expected 3 fields road_class,hour_of_week,factor, found \(count)"
        case let .invalidField(line, field, value, reason):
            "line \(line), field \(field): '\(value)' \(reason)"
        }
    }
}

extension SpeedProfile {
    /// The CSV header line, optional at the top of a file.
    public static let header = "road_class,hour_of_week,factor"

    /// Reads a profile from its text form.
    ///
    /// One rule per line, `road_class,hour_of_week,factor`:
    /// - `road_class`: an OSM-style class name in snake case (`motorway`,
    ///   `primary_link`, `living_street`, `residential`, …) or `*` for all;
    /// - `hour_of_week`: `h` or an inclusive range `a-b` within 0–167
    ///   (0 = Monday 00:00–01:00 local time), or `*` for all hours;
    /// - `factor`: fraction of free-flow speed, a number in (0, 2].
    ///
    /// One more line, optional: `trip_overhead_s,<seconds>` (0–1800), the
    /// time added to every drive (``tripOverheadSeconds``).
    ///
    /// Every (class, hour) starts at 1 (free flow); rules apply in file
    /// order, a later rule overriding an earlier one. Blank lines and lines
    /// starting with `#` are skipped, as is the header line.
    ///
    /// ```
    /// road_class,hour_of_week,factor
    /// *,7-9,0.6          # Monday rush hour, all classes
    /// residential,7-9,0.8
    /// ```
    /// - Throws: ``SpeedProfileError`` naming the first bad line and field.
    public init(parsing text: String) throws {
        self.init()
        let classes = Dictionary(uniqueKeysWithValues: RoadClass.allCases.map { (Self.snakeCaseName($0), $0) })
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed == Self.header { continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.first == Self.overheadKey && fields.count == 2 {
                guard let seconds = Double(fields[1]), (0...1800).contains(seconds) else {
                    throw SpeedProfileError.invalidField(line: line, field: Self.overheadKey, value: fields[1],
                                                         reason: "is not a number of seconds in 0-1800")
                }
                tripOverheadSeconds = seconds
                continue
            }
            guard fields.count == 3 else { throw SpeedProfileError.wrongFieldCount(line: line, count: fields.count) }

            let targetClasses: [RoadClass]
            if fields[0] == "*" {
                targetClasses = RoadClass.allCases
            } else if let roadClass = classes[fields[0]] {
                targetClasses = [roadClass]
            } else {
                throw SpeedProfileError.invalidField(line: line, field: "road_class", value: fields[0],
                                                     reason: "is not a road class (e.g. primary, residential, *)")
            }
            let hours = try Self.parseHours(fields[1], line: line)
            guard let factor = Float(fields[2]), factor > 0, factor <= 2 else {
                throw SpeedProfileError.invalidField(line: line, field: "factor", value: fields[2],
                                                     reason: "is not a number in (0, 2]")
            }
            for roadClass in targetClasses {
                for hour in hours { setFactor(factor, for: roadClass, hourOfWeek: hour) }
            }
        }
    }

    private static func parseHours(_ field: String, line: Int) throws -> ClosedRange<Int> {
        if field == "*" { return 0...(hoursPerWeek - 1) }
        let bounds = field.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(bounds.count), let low = bounds.first!, let high = bounds.last!,
              low >= 0, low <= high, high < hoursPerWeek else {
            throw SpeedProfileError.invalidField(line: line, field: "hour_of_week", value: field,
                                                 reason: "is not an hour or range a-b within 0-167, or *")
        }
        return low...high
    }

    /// The key of the trip-overhead line.
    public static let overheadKey = "trip_overhead_s"

    /// The profile in its text form, which ``init(parsing:)`` reads back
    /// equal: the header, the overhead, then per class one line per run of
    /// hours with the same factor.
    public var text: String {
        var lines = [Self.header, "\(Self.overheadKey),\(tripOverheadSeconds)"]
        for roadClass in RoadClass.allCases {
            var start = 0
            while start < Self.hoursPerWeek {
                let value = factor(roadClass, hourOfWeek: start)
                var end = start
                while end + 1 < Self.hoursPerWeek && factor(roadClass, hourOfWeek: end + 1) == value { end += 1 }
                let hours = start == end ? "\(start)" : "\(start)-\(end)"
                lines.append("\(Self.snakeCaseName(roadClass)),\(hours),\(value)")
                start = end + 1
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `livingStreet` → `living_street`, the OSM spelling files use.
    static func snakeCaseName(_ roadClass: RoadClass) -> String {
        String(describing: roadClass).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }
}
