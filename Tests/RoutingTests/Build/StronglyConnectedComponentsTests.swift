import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct StronglyConnectedComponentsTests {
    @Test func findsTheComponentsOfASmallGraph() {
        // 0 <-> 1 -> 2 <-> 3, 4 alone.
        let components = StronglyConnectedComponents(firstEdge: [0, 1, 3, 4, 5, 5], edgeHead: [1, 0, 2, 3, 2])
        #expect(components.component[0] == components.component[1])
        #expect(components.component[2] == components.component[3])
        #expect(components.component[0] != components.component[2])
        #expect(components.sizes.sorted() == [1, 2, 2])
    }

    /// A ring of a million nodes is one component, found without recursion.
    @Test func handlesALongRingWithoutRecursion() {
        let count = 1_000_000
        let firstEdge = (0...count).map(UInt32.init)
        let edgeHead = (0..<count).map { UInt32(($0 + 1) % count) }
        let components = StronglyConnectedComponents(firstEdge: firstEdge, edgeHead: edgeHead)
        #expect(components.sizes == [count])
        #expect(components.largest == 0)
    }
}
