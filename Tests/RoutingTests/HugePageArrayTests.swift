import Testing
@testable import Routing

/// The snapping grid's arrays read back what was copied into them: empty,
/// small (on ordinary pages) and beyond a huge page (placed on a 2 MB
/// boundary and advised to the kernel as huge-page memory).
@Suite(.timeLimit(.minutes(20))) struct HugePageArrayTests {
    @Test(arguments: [0, 1, 1_000, 700_000])
    func numbersReadBackAsCopiedIn(count: Int) {
        let numbers = (0..<count).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
        let array = HugePageArray(numbers)
        #expect(array.count == count)
        #expect((0..<count).allSatisfy { array[$0] == numbers[$0] })
    }

    /// The grid's listed segments, 20 bytes each, over 2 MB in all.
    @Test func segmentsReadBackAsCopiedIn() {
        let segments = (0..<120_000).map { index in
            SegmentGrid.ListedSegment(
                SegmentGrid.Segment(x0: Double(index), y0: -Double(index), x1: Double(index) + 0.25, y1: 7.5,
                                    edge: UInt32(index * 3)),
                cornerX: 0, cornerY: 0)
        }
        let array = HugePageArray(segments)
        #expect(array.count == segments.count)
        #expect(segments.indices.allSatisfy { index in
            let read = array[index], copied = segments[index]
            return (read.x0, read.y0, read.x1, read.y1, read.edge)
                == (copied.x0, copied.y0, copied.x1, copied.y1, copied.edge)
        })
    }
}
