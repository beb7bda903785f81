/// How a ``CCHMetric``'s triangle relaxation shares out between threads.
///
/// The elimination tree is cut along its spine: from the root, down into
/// the largest child, for as long as that child holds more than half the
/// nodes (the top separators of the nested dissection). Every subtree
/// hanging off the spine is independent of the others: a node's lower
/// triangles all come from its own subtree, and it writes only to its own
/// subtree's arcs and to the spine's (every upward neighbour is an
/// ancestor). The hanging subtrees are gathered into ``parts`` of about
/// equal size, each relaxed on its own thread with its own copy of the
/// spine's arcs; the copies are merged by taking the smaller weight, and
/// the spine's own triangles are relaxed last.
struct CustomizationSplit: Sendable, Equatable {
    /// The ranks of each part, ascending; empty when the relaxation runs on one thread.
    let parts: [[UInt32]]
    /// The spine's ranks, ascending; every rank when the relaxation runs on one thread.
    let spine: [UInt32]
    /// For each rank, where its arcs start in a copy of the spine's arcs; -1 off the spine.
    let spineArcStart: [Int32]
    /// How many arcs the spine's ranks have.
    let spineArcCount: Int

    /// Below this many nodes the relaxation runs on one thread: starting
    /// threads costs more than it saves.
    static let minimumParallelNodes = 50_000

    /// The split of the elimination tree `parent` (each rank's parent,
    /// `UInt32.max` for a root) whose ranks' arcs start at `firstArc`, into
    /// at most `partCount` parts; one thread for fewer than `minimumParallelNodes` nodes.
    init(parent: [UInt32], firstArc: [UInt32], partCount: Int, minimumParallelNodes: Int = Self.minimumParallelNodes) {
        let nodeCount = parent.count
        guard partCount > 1, nodeCount >= max(minimumParallelNodes, 2) else {
            parts = []
            spine = (0..<UInt32(nodeCount)).map { $0 }
            spineArcStart = []
            spineArcCount = 0
            return
        }
        // Subtree sizes, and each node's largest child (ranks ascend towards the root).
        var size = [Int](repeating: 1, count: nodeCount)
        var largestChild = [Int32](repeating: -1, count: nodeCount)
        var largestRoot = -1
        for node in 0..<nodeCount {
            if parent[node] == UInt32.max {
                if largestRoot < 0 || size[node] > size[largestRoot] { largestRoot = node }
                continue
            }
            let up = Int(parent[node])
            size[up] += size[node]
            if largestChild[up] < 0 || size[node] > size[Int(largestChild[up])] { largestChild[up] = Int32(node) }
        }
        var onSpine = [Bool](repeating: false, count: nodeCount)
        var next = size[largestRoot] * 2 > nodeCount ? largestRoot : -1
        while next >= 0 {
            onSpine[next] = true
            let child = Int(largestChild[next])
            next = child >= 0 && size[child] * 2 > nodeCount ? child : -1
        }
        // Each node off the spine takes the hanging subtree it is in (named by its root).
        var subtree = [Int32](repeating: -1, count: nodeCount)
        var hangingRoots: [Int] = []
        for node in stride(from: nodeCount - 1, through: 0, by: -1) where !onSpine[node] {
            let up = parent[node]
            if up == UInt32.max || onSpine[Int(up)] {
                subtree[node] = Int32(node)
                hangingRoots.append(node)
            } else {
                subtree[node] = subtree[Int(up)]
            }
        }
        // Largest subtrees first, each into the smallest part so far.
        var partOf = [Int](repeating: 0, count: nodeCount)
        var partSize = [Int](repeating: 0, count: partCount)
        for root in hangingRoots.sorted(by: { (size[$0], $0) > (size[$1], $1) }) {
            let smallest = partSize.indices.min { partSize[$0] < partSize[$1] }!
            partOf[root] = smallest
            partSize[smallest] += size[root]
        }
        var parts = partSize.map { _ in [UInt32]() }
        for part in parts.indices { parts[part].reserveCapacity(partSize[part]) }
        var spine: [UInt32] = []
        var spineArcStart = [Int32](repeating: -1, count: nodeCount)
        var spineArcCount = 0
        for node in 0..<nodeCount {
            if onSpine[node] {
                spine.append(UInt32(node))
                spineArcStart[node] = Int32(spineArcCount)
                spineArcCount += Int(firstArc[node + 1] - firstArc[node])
            } else {
                parts[partOf[Int(subtree[node])]].append(UInt32(node))
            }
        }
        self.parts = parts.filter { !$0.isEmpty }
        self.spine = spine
        self.spineArcStart = spineArcStart
        self.spineArcCount = spineArcCount
    }
}
