extension EdgeZones {
    /// The section holding ``zoneIDs``: UTF-8, one id per line.
    public static let idsSection = "zoneids"
    /// The section holding ``edgeZone``: UInt16 per edge.
    public static let edgeSection = "edgezone"

    /// The two graph-file sections that store the table.
    public var sections: [String: [UInt8]] {
        [Self.idsSection: Array(zoneIDs.joined(separator: "\n").utf8), Self.edgeSection: GraphFile.bytes(of: edgeZone)]
    }

    /// Reads the table back from a graph file's extra sections; nil when the
    /// graph was built without zones.
    /// - Throws: ``GraphFileError/missingSection(_:)`` when only one of the two
    ///   sections is there, ``GraphFileError/inconsistentSection(_:detail:)``
    ///   when the sizes do not match the graph or an index has no id.
    public init?(sections: [String: [UInt8]], edgeCount: Int) throws(GraphFileError) {
        switch (sections[Self.idsSection], sections[Self.edgeSection]) {
        case (nil, nil):
            return nil
        case (nil, _):
            throw .missingSection(Self.idsSection)
        case (_, nil):
            throw .missingSection(Self.edgeSection)
        case let (ids?, edges?):
            let text = String(decoding: ids, as: UTF8.self)
            let zoneIDs = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let edgeZone = try GraphFile.array(of: UInt16.self, from: edges, section: Self.edgeSection)
            guard edgeZone.count == edgeCount else {
                throw .inconsistentSection(Self.edgeSection, detail: "\(edgeZone.count) entries for \(edgeCount) edges")
            }
            if let bad = edgeZone.first(where: { $0 != Self.noZone && Int($0) >= zoneIDs.count }) {
                throw .inconsistentSection(Self.edgeSection, detail: "zone \(bad) is not one of the \(zoneIDs.count) zone ids")
            }
            self.init(zoneIDs: zoneIDs, edgeZone: edgeZone)
        }
    }
}
