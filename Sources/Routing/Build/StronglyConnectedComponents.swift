/// Strongly connected components of a graph in CSR form, by Tarjan's
/// algorithm written with an explicit stack (no recursion, so a graph of
/// millions of nodes cannot overflow the thread's stack).
struct StronglyConnectedComponents {
    /// The component of each node, numbered from 0.
    var component: [Int32]
    /// The number of nodes in each component.
    var sizes: [Int]

    /// The largest component's number (the first one on ties), or nil for an empty graph.
    var largest: Int32? {
        sizes.indices.max { sizes[$0] < sizes[$1] }.map(Int32.init)
    }

    /// Labels the components of the graph whose node `v` has the out-edges
    /// `firstEdge[v]..<firstEdge[v + 1]` leading to `edgeHead`.
    init(firstEdge: [UInt32], edgeHead: [UInt32]) {
        let nodeCount = firstEdge.count - 1
        var order = [Int32](repeating: -1, count: nodeCount)
        var low = [Int32](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var stack: [Int32] = []
        var calls: [(node: Int32, nextEdge: UInt32)] = []
        var component = [Int32](repeating: -1, count: nodeCount)
        var sizes: [Int] = []
        var counter: Int32 = 0

        func visit(_ node: Int32) {
            order[Int(node)] = counter
            low[Int(node)] = counter
            counter += 1
            stack.append(node)
            onStack[Int(node)] = true
            calls.append((node, firstEdge[Int(node)]))
        }

        for root in 0..<nodeCount where order[root] < 0 {
            visit(Int32(root))
            while let (node, edge) = calls.last {
                let v = Int(node)
                if edge < firstEdge[v + 1] {
                    calls[calls.count - 1].nextEdge += 1
                    let w = Int32(edgeHead[Int(edge)])
                    if order[Int(w)] < 0 {
                        visit(w)
                    } else if onStack[Int(w)] {
                        low[v] = min(low[v], order[Int(w)])
                    }
                    continue
                }
                calls.removeLast()
                if let parent = calls.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[v]) }
                guard low[v] == order[v] else { continue }
                let label = Int32(sizes.count)
                var size = 0
                while true {
                    let member = stack.removeLast()
                    onStack[Int(member)] = false
                    component[Int(member)] = label
                    size += 1
                    if member == node { break }
                }
                sizes.append(size)
            }
        }
        self.component = component
        self.sizes = sizes
    }
}
