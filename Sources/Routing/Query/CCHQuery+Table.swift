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

    private func table(_ selection: CCHSelection, single: [SearchSeed], search space: SearchSpace,
                       upward: UnsafeBufferPointer<UInt32>, upwardLengths: UnsafeBufferPointer<Float>,
                       sweep: UnsafeBufferPointer<UInt32>, sweepLengths: UnsafeBufferPointer<Float>) -> [TableCell] {
        defer { space.reset() }
        search(space, from: single, weights: upward, lengths: upwardLengths) { _ in true }
        let count = selection.nodeCount
        if sweepDistance.count < count {
            sweepDistance = [UInt32](repeating: 0, count: count)
            sweepLength = [Float](repeating: 0, count: count)
        }
        let distance = space.distance, length = space.length
        selection.ranks.withUnsafeBufferPointer { ranks in
        selection.firstArc.withUnsafeBufferPointer { firstArc in
        selection.arcLocalHead.withUnsafeBufferPointer { localHead in
        selection.arcId.withUnsafeBufferPointer { arcId in
        sweepDistance.withUnsafeMutableBufferPointer { best in
        sweepLength.withUnsafeMutableBufferPointer { bestLength in
            for position in 0..<count {
                let rank = Int(ranks[position])
                var here = distance[rank], hereLength = length[rank]
                for slot in Int(firstArc[position])..<Int(firstArc[position + 1]) {
                    let higher = Int(localHead[slot]), arc = Int(arcId[slot])
                    let candidate = UInt64(best[higher]) + UInt64(sweep[arc])
                    if candidate < UInt64(here) {
                        here = UInt32(candidate)
                        hereLength = bestLength[higher] + sweepLengths[arc]
                    }
                }
                best[position] = here
                bestLength[position] = hereLength
            }
        }}}}}}
        var cells = [TableCell](repeating: .unreachable, count: selection.endpointCount)
        for endpoint in 0..<selection.endpointCount {
            for seed in Int(selection.firstSeed[endpoint])..<Int(selection.firstSeed[endpoint + 1]) {
                let position = Int(selection.seedLocal[seed])
                let total = UInt64(sweepDistance[position]) + UInt64(selection.seedOffsetMs[seed])
                if total < UInt64(cells[endpoint].durationMs) {
                    cells[endpoint] = TableCell(durationMs: UInt32(total),
                                                lengthMetres: sweepLength[position] + selection.seedOffsetMetres[seed])
                }
            }
        }
        return cells
    }
}
