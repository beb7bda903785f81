/// The street name of every edge of a graph (OSM `name`, else `ref`), kept
/// once per distinct name: what lets a road be named where the engine only
/// knows edge numbers (an incident on "7th Avenue", a matched drive shown
/// on the map).
public struct EdgeNames: Sendable, Equatable {
    /// The value of ``edgeName`` for an edge whose way has no name.
    public static let unnamed = UInt32.max
    /// The distinct names, in the order first met.
    public var names: [String]
    /// Per edge, an index into ``names``, or ``unnamed``.
    public var edgeName: [UInt32]

    /// The table from its parts.
    /// - Precondition: every entry of `edgeName` is ``unnamed`` or an index into `names`.
    public init(names: [String], edgeName: [UInt32]) {
        precondition(edgeName.allSatisfy { $0 == Self.unnamed || Int($0) < names.count })
        self.names = names
        self.edgeName = edgeName
    }

    /// The names of the edges of a build, from the ways of its extract.
    public init(edgeWayIDs: [Int64], ways: [OSMWay]) {
        var nameOfWay: [Int64: String] = [:]
        for way in ways {
            if let name = way.tags["name"] ?? way.tags["ref"], !name.isEmpty, !name.contains("\n") { nameOfWay[way.id] = name }
        }
        var index: [String: UInt32] = [:]
        var names: [String] = []
        let edgeName = edgeWayIDs.map { way -> UInt32 in
            guard let name = nameOfWay[way] else { return Self.unnamed }
            if let known = index[name] { return known }
            let next = UInt32(names.count)
            index[name] = next
            names.append(name)
            return next
        }
        self.init(names: names, edgeName: edgeName)
    }

    /// The name of `edge`, nil when its way has none.
    public func name(ofEdge edge: Int) -> String? {
        edgeName[edge] == Self.unnamed ? nil : names[Int(edgeName[edge])]
    }

    /// The edges named `name`, compared without regard to case, spaces
    /// around it or the abbreviations "St"/"Ave" and their full forms.
    public func edges(named name: String) -> [Int] {
        let wanted = Self.normalized(name)
        let matching = Set(names.indices.filter { Self.normalized(names[$0]) == wanted }.map(UInt32.init))
        return edgeName.indices.filter { matching.contains(edgeName[$0]) }
    }

    /// The names that come closest to `name`, for an error that suggests one.
    public func suggestions(for name: String, limit: Int = 3) -> [String] {
        let wanted = Self.normalized(name)
        return names.filter { Self.normalized($0).contains(wanted) || wanted.contains(Self.normalized($0)) }
            .sorted().prefix(limit).map { $0 }
    }

    static func normalized(_ name: String) -> String {
        let words = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "." }).map { word -> String in
            switch word {
            case "st": "street"
            case "ave", "av": "avenue"
            case "blvd": "boulevard"
            case "rd": "road"
            default: String(word)
            }
        }
        return words.joined(separator: " ")
    }
}

extension EdgeNames {
    /// The section holding ``names``: UTF-8, one per line.
    public static let namesSection = "roadname"
    /// The section holding ``edgeName``: UInt32 per edge.
    public static let edgeSection = "edgename"

    /// The two graph-file sections that store the table.
    public var sections: [String: [UInt8]] {
        [Self.namesSection: Array(names.joined(separator: "\n").utf8), Self.edgeSection: GraphFile.bytes(of: edgeName)]
    }

    /// Reads the table back from a graph file's extra sections; nil when the
    /// graph was built before names were stored.
    /// - Throws: ``GraphFileError`` when only one section is there or the sizes do not match the graph.
    public init?(sections: [String: [UInt8]], edgeCount: Int) throws(GraphFileError) {
        switch (sections[Self.namesSection], sections[Self.edgeSection]) {
        case (nil, nil):
            return nil
        case (nil, _):
            throw .missingSection(Self.namesSection)
        case (_, nil):
            throw .missingSection(Self.edgeSection)
        case let (text?, edges?):
            let string = String(decoding: text, as: UTF8.self)
            let names = string.isEmpty ? [] : string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let edgeName = try GraphFile.array(of: UInt32.self, from: edges, section: Self.edgeSection)
            guard edgeName.count == edgeCount else {
                throw .inconsistentSection(Self.edgeSection, detail: "\(edgeName.count) entries for \(edgeCount) edges")
            }
            if let bad = edgeName.first(where: { $0 != Self.unnamed && Int($0) >= names.count }) {
                throw .inconsistentSection(Self.edgeSection, detail: "name \(bad) is not one of the \(names.count) names")
            }
            self.init(names: names, edgeName: edgeName)
        }
    }
}
