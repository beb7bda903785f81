/// One entry of a travel-time table.
public struct TableCell: Sendable, Equatable {
    /// Travel time in ms, ``unreachableMs`` when there is no path.
    public var durationMs: UInt32
    /// Length in metres of the fastest path (carried through customization,
    /// not unpacked; among equally fast paths it may differ from the one a
    /// point-to-point query unpacks).
    public var lengthMetres: Float

    /// The cell of an endpoint with no path.
    public static let unreachable = TableCell(durationMs: unreachableMs, lengthMetres: .infinity)
}

extension CCHQuery {
    /// Travel times from one place (its seeds) to every endpoint of `selection` (one-to-many).
    ///
    /// One upward search from the source, then one top-down sweep over the
    /// selection: each selected node takes the best of its own upward-search
    /// distance and its higher neighbours' final distances plus the arc's
    /// downward weight.
    public func oneToMany(from sources: [SearchSeed], to selection: CCHSelection, metric: CCHMetric) -> [TableCell] {
        metric.upWeight.withUnsafeBufferPointer { up in
        metric.upLength.withUnsafeBufferPointer { upLength in
        metric.downWeight.withUnsafeBufferPointer { down in
        metric.downLength.withUnsafeBufferPointer { downLength in
            table(selection, single: sources, search: forward, upward: up, upwardLengths: upLength,
                  sweep: down, sweepLengths: downLength)
        }}}}
    }

    /// Travel times from every endpoint of `selection` to one place (many-to-one),
    /// e.g. from many taxis to one pickup: ``oneToMany(from:to:metric:)`` on the reversed arcs.
    public func manyToOne(from selection: CCHSelection, to targets: [SearchSeed], metric: CCHMetric) -> [TableCell] {
        metric.upWeight.withUnsafeBufferPointer { up in
        metric.upLength.withUnsafeBufferPointer { upLength in
        metric.downWeight.withUnsafeBufferPointer { down in
        metric.downLength.withUnsafeBufferPointer { downLength in
            table(selection, single: targets, search: backward, upward: down, upwardLengths: downLength,
                  sweep: up, sweepLengths: upLength)
        }}}}
    }

    /// Travel times from every node to one place (PHAST: one backward
    /// search, then a top-down sweep over every node), handed to `body` by
    /// rank while they are valid. For a table whose many endpoints lie all
    /// over the graph (thousands of taxis in a district), where selecting
    /// their ancestors would select most of it anyway: each endpoint's
    /// seeds are then read straight from the sweep, with no selection built.
    public func withTimesFromEveryNode<Result>(to targets: [SearchSeed], metric: CCHMetric,
                                               _ body: (_ durationMs: UnsafeBufferPointer<UInt32>,
                                                        _ lengthMetres: UnsafeBufferPointer<Float>) -> Result) -> Result {
        metric.upWeight.withUnsafeBufferPointer { up in
        metric.upLength.withUnsafeBufferPointer { upLength in
        metric.downWeight.withUnsafeBufferPointer { down in
        metric.downLength.withUnsafeBufferPointer { downLength in
            defer { backward.reset() }
            sweep((0..<UInt32(topology.nodeCount)).reversed(), single: targets,
                  search: backward, upward: down, upwardLengths: downLength, sweep: up, sweepLengths: upLength)
            return sweepDistance.withUnsafeBufferPointer { durations in
                sweepLength.withUnsafeBufferPointer { lengths in body(durations, lengths) }
            }
        }}}}
    }

    private func table(_ selection: CCHSelection, single: [SearchSeed], search space: SearchSpace,
                       upward: UnsafeBufferPointer<UInt32>, upwardLengths: UnsafeBufferPointer<Float>,
                       sweep: UnsafeBufferPointer<UInt32>, sweepLengths: UnsafeBufferPointer<Float>) -> [TableCell] {
        defer { space.reset() }
        selection.ranks.withUnsafeBufferPointer { ranks in
            self.sweep(ranks, single: single, search: space, upward: upward, upwardLengths: upwardLengths,
                       sweep: sweep, sweepLengths: sweepLengths)
        }
        var cells = [TableCell](repeating: .unreachable, count: selection.endpointCount)
        for endpoint in 0..<selection.endpointCount {
            for seed in Int(selection.firstSeed[endpoint])..<Int(selection.firstSeed[endpoint + 1]) {
                let position = Int(selection.seedRank[seed])
                let total = UInt64(sweepDistance[position]) + UInt64(selection.seedOffsetMs[seed])
                if total < UInt64(cells[endpoint].durationMs) {
                    cells[endpoint] = TableCell(durationMs: UInt32(total),
                                                lengthMetres: sweepLength[position] + selection.seedOffsetMetres[seed])
                }
            }
        }
        return cells
    }

    /// The upward search from `single`, then the sweep over `ranks` (highest
    /// first) into ``sweepDistance`` and ``sweepLength``: every arc's head
    /// is final before its tail is reached, and each rank swept is written
    /// before it is read, so no reset is needed.
    private func sweep(_ ranks: some Sequence<UInt32>, single: [SearchSeed], search space: SearchSpace,
                       upward: UnsafeBufferPointer<UInt32>, upwardLengths: UnsafeBufferPointer<Float>,
                       sweep: UnsafeBufferPointer<UInt32>, sweepLengths: UnsafeBufferPointer<Float>) {
        search(space, from: single, weights: upward, lengths: upwardLengths)
        if sweepDistance.count < topology.nodeCount {
            sweepDistance = [UInt32](repeating: 0, count: topology.nodeCount)
            sweepLength = [Float](repeating: 0, count: topology.nodeCount)
        }
        let distance = space.distance, length = space.length
        topology.firstArc.withUnsafeBufferPointer { firstArc in
        topology.arcHead.withUnsafeBufferPointer { arcHead in
        sweepDistance.withUnsafeMutableBufferPointer { best in
        sweepLength.withUnsafeMutableBufferPointer { bestLength in
            for rank in ranks {
                let node = Int(rank)
                var here = distance[node], hereLength = length[node]
                for arc in Int(firstArc[node])..<Int(firstArc[node + 1]) {
                    let higher = Int(arcHead[arc])
                    let candidate = UInt64(best[higher]) + UInt64(sweep[arc])
                    if candidate < UInt64(here) {
                        here = UInt32(candidate)
                        hereLength = bestLength[higher] + sweepLengths[arc]
                    }
                }
                best[node] = here
                bestLength[node] = hereLength
            }
        }}}}
    }
}
