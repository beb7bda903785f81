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
    ///   or `lanes:narrow` / `lanes:wide` / `lanes:untagged` for the factor of
    ///   a ``LaneClass``, or `zone:<id>` for the factor of every road in an area
    ///   zone (``EdgeZones``; the id as in the zone file). Lane and zone factors
    ///   multiply the class factor and start at 1;
    /// - `hour_of_week`: `h` or an inclusive range `a-b` within 0–167
    ///   (0 = Monday 00:00–01:00 local time), or `*` for all hours;
    /// - `factor`: fraction of free-flow speed, a number in (0, 2].
    ///
    /// Two more lines, optional: `trip_overhead_s,<seconds>` (0–1800), the
    /// time added to every drive (``tripOverheadSeconds``), and
    /// `minor_signal_delay_s,<seconds>` (0–300), the free-flow delay of a
    /// minor approach to a traffic signal (``minorSignalDelaySeconds``).
    ///
    /// Every (class, hour) starts at 1 (free flow); rules apply in file
    /// order, a later rule overriding an earlier one. Blank lines and lines
    /// starting with `#` are skipped, as is the header line.
    ///
    /// ```
    /// road_class,hour_of_week,factor
    /// *,7-9,0.6          # Monday rush hour, all classes
    /// residential,7-9,0.8
    /// lanes:narrow,*,0.6 # one or two lanes per direction
    /// zone:161,*,0.75    # Midtown Center
    /// ```
    /// - Throws: ``SpeedProfileError`` naming the first bad line and field.
    public init(parsing text: String) throws {
        self.init()
        let classes = Self.roadClassesByName
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = content.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed == Self.header { continue }
            let fields = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.first == Self.overheadKey && fields.count == 2 {
                tripOverheadSeconds = try Self.parseSeconds(fields[1], key: Self.overheadKey, limit: 1800, line: line)
                continue
            }
            if fields.first == Self.minorSignalDelayKey && fields.count == 2 {
                minorSignalDelaySeconds = try Self.parseSeconds(fields[1], key: Self.minorSignalDelayKey, limit: 300, line: line)
                continue
            }
            guard fields.count == 3 else { throw SpeedProfileError.wrongFieldCount(line: line, count: fields.count) }

            let target = try Self.parseTarget(fields[0], classes: classes, line: line)
            let hours = try Self.parseHours(fields[1], line: line)
            guard let factor = Float(fields[2]), factor > 0, factor <= 2 else {
                throw SpeedProfileError.invalidField(line: line, field: "factor", value: fields[2],
                                                     reason: "is not a number in (0, 2]")
            }
            for hour in hours {
                switch target {
                case .classes(let roadClasses): for roadClass in roadClasses { setFactor(factor, for: roadClass, hourOfWeek: hour) }
                case .lanes(let laneClass): setLaneFactor(factor, for: laneClass, hourOfWeek: hour)
                case .zone(let id): setZoneFactor(factor, for: id, hourOfWeek: hour)
                }
            }
        }
    }

    /// What the first field of a rule sets the factor of.
    private enum Target {
        case classes([RoadClass])
        case lanes(LaneClass)
        case zone(String)
    }

    /// The prefix of a lane-class rule's first field.
    public static let lanesPrefix = "lanes:"
    /// The prefix of a zone rule's first field.
    public static let zonePrefix = "zone:"

    private static func parseTarget(_ field: String, classes: [String: RoadClass], line: Int) throws -> Target {
        if field == "*" { return .classes(RoadClass.allCases) }
        if let roadClass = classes[field] { return .classes([roadClass]) }
        if field.hasPrefix(lanesPrefix) {
            let name = field.dropFirst(lanesPrefix.count)
            guard let laneClass = LaneClass.allCases.first(where: { $0.name == name }) else {
                throw SpeedProfileError.invalidField(line: line, field: "road_class", value: field,
                                                     reason: "is not a lane class (lanes:narrow, lanes:wide, lanes:untagged)")
            }
            return .lanes(laneClass)
        }
        if field.hasPrefix(zonePrefix) {
            let id = String(field.dropFirst(zonePrefix.count))
            guard !id.isEmpty else {
                throw SpeedProfileError.invalidField(line: line, field: "road_class", value: field,
                                                     reason: "names no zone (write zone:<id>)")
            }
            return .zone(id)
        }
        throw SpeedProfileError.invalidField(line: line, field: "road_class", value: field,
                                             reason: "is not a road class (e.g. primary, residential, *), lanes:<class> or zone:<id>")
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
    /// The key of the minor-signal-approach delay line.
    public static let minorSignalDelayKey = "minor_signal_delay_s"

    private static func parseSeconds(_ field: String, key: String, limit: Double, line: Int) throws -> Double {
        guard let seconds = Double(field), (0...limit).contains(seconds) else {
            throw SpeedProfileError.invalidField(line: line, field: key, value: field,
                                                 reason: "is not a number of seconds in 0-\(Int(limit))")
        }
        return seconds
    }

    /// The profile in its text form, which ``init(parsing:)`` reads back
    /// equal: the header, the overhead, the minor-signal delay when not 0, then per class one line per run of
    /// hours with the same factor; then the lane classes whose factor is not
    /// 1 throughout, and every zone the profile names (ids in ascending
    /// order, numbers by value), `*` for a zone or lane class with one factor
    /// all week.
    public var text: String {
        var lines = [Self.header, "\(Self.overheadKey),\(tripOverheadSeconds)"]
        if minorSignalDelaySeconds != 0 { lines.append("\(Self.minorSignalDelayKey),\(minorSignalDelaySeconds)") }
        for roadClass in RoadClass.allCases {
            lines += Self.runs(Self.roadClassNames[roadClass, default: Self.snakeCaseName(roadClass)]) { factor(roadClass, hourOfWeek: $0) }
        }
        for laneClass in LaneClass.allCases
        where (0..<Self.hoursPerWeek).contains(where: { laneFactor(laneClass, hourOfWeek: $0) != 1 }) {
            lines += Self.runs(Self.lanesPrefix + laneClass.name) { laneFactor(laneClass, hourOfWeek: $0) }
        }
        let zoneIDs = zoneFactors.keys.sorted { left, right in
            switch (Int(left), Int(right)) {
            case let (l?, r?): l < r
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): left < right
            }
        }
        for id in zoneIDs {
            lines += Self.runs(Self.zonePrefix + id) { zoneFactor(id, hourOfWeek: $0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Lines `name,hours,factor`, one per run of hours with the same factor (`*` for the whole week).
    private static func runs(_ name: String, factor: (Int) -> Float) -> [String] {
        var lines: [String] = []
        var start = 0
        while start < hoursPerWeek {
            let value = factor(start)
            var end = start
            while end + 1 < hoursPerWeek && factor(end + 1) == value { end += 1 }
            let hours = start == end ? "\(start)" : (start, end) == (0, hoursPerWeek - 1) ? "*" : "\(start)-\(end)"
            lines.append("\(name),\(hours),\(value)")
            start = end + 1
        }
        return lines
    }

    /// Each road class by the name files use, worked out once: spelling
    /// names out by reflection for every profile read made each read cost
    /// more than the rest of the parse.
    private static let roadClassNames = Dictionary(uniqueKeysWithValues: RoadClass.allCases.map { ($0, snakeCaseName($0)) })
    private static let roadClassesByName = Dictionary(uniqueKeysWithValues: roadClassNames.map { ($0.value, $0.key) })

    /// `livingStreet` → `living_street`, the OSM spelling files use.
    private static func snakeCaseName(_ roadClass: RoadClass) -> String {
        String(describing: roadClass).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }
}
