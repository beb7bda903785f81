/// An indexed binary min-heap of node ids keyed by travel time (ms), with decrease-key.
///
/// Dijkstra lowers the key of nodes already queued; the position table makes
/// that O(log n) without queuing duplicates. Storage for `capacity` ids is
/// allocated once and reused across searches, so a search allocates nothing.
/// Not thread-safe: one heap per search object, one search object per thread.
public final class MinHeap {
    /// The largest id plus one that the heap accepts.
    public let capacity: Int
    /// The number of queued ids.
    public private(set) var count = 0
    private let ids: UnsafeMutablePointer<UInt32>
    private let keys: UnsafeMutablePointer<UInt32>
    /// Heap slot + 1 of each id; 0 when the id is not queued.
    private let slotPlusOne: UnsafeMutablePointer<UInt32>

    /// Creates an empty heap for ids `0..<capacity`.
    public init(capacity: Int) {
        self.capacity = capacity
        ids = .allocate(capacity: max(capacity, 1))
        keys = .allocate(capacity: max(capacity, 1))
        slotPlusOne = .allocate(capacity: max(capacity, 1))
        slotPlusOne.initialize(repeating: 0, count: max(capacity, 1))
    }

    deinit {
        ids.deallocate()
        keys.deallocate()
        slotPlusOne.deallocate()
    }

    /// True when no id is queued.
    public var isEmpty: Bool { count == 0 }

    /// Queues `id` with `key`, or lowers its key when it is queued with a larger one.
    /// A larger key for a queued id is ignored.
    public func insertOrDecrease(_ id: Int, key: UInt32) {
        let slot = slotPlusOne[id]
        if slot == 0 {
            ids[count] = UInt32(id)
            keys[count] = key
            slotPlusOne[id] = UInt32(count + 1)
            count += 1
            siftUp(count - 1)
        } else if key < keys[Int(slot) - 1] {
            keys[Int(slot) - 1] = key
            siftUp(Int(slot) - 1)
        }
    }

    /// Removes and returns the id with the smallest key.
    /// - Precondition: the heap is not empty.
    public func popMin() -> (id: Int, key: UInt32) {
        precondition(count > 0, "popMin on an empty heap")
        let top = (id: Int(ids[0]), key: keys[0])
        slotPlusOne[top.id] = 0
        count -= 1
        if count > 0 {
            ids[0] = ids[count]
            keys[0] = keys[count]
            slotPlusOne[Int(ids[0])] = 1
            siftDown(0)
        }
        return top
    }

    /// Empties the heap in O(count).
    public func removeAll() {
        for slot in 0..<count { slotPlusOne[Int(ids[slot])] = 0 }
        count = 0
    }

    private func siftUp(_ start: Int) {
        var slot = start
        let id = ids[slot], key = keys[slot]
        while slot > 0 {
            let parent = (slot - 1) >> 1
            guard keys[parent] > key else { break }
            move(from: parent, to: slot)
            slot = parent
        }
        place(id: id, key: key, at: slot)
    }

    private func siftDown(_ start: Int) {
        var slot = start
        let id = ids[slot], key = keys[slot]
        while true {
            var child = 2 * slot + 1
            guard child < count else { break }
            if child + 1 < count && keys[child + 1] < keys[child] { child += 1 }
            guard keys[child] < key else { break }
            move(from: child, to: slot)
            slot = child
        }
        place(id: id, key: key, at: slot)
    }

    @inline(__always) private func move(from source: Int, to destination: Int) {
        ids[destination] = ids[source]
        keys[destination] = keys[source]
        slotPlusOne[Int(ids[destination])] = UInt32(destination + 1)
    }

    @inline(__always) private func place(id: UInt32, key: UInt32, at slot: Int) {
        ids[slot] = id
        keys[slot] = key
        slotPlusOne[Int(id)] = UInt32(slot + 1)
    }
}

@available(*, unavailable)
extension MinHeap: Sendable {}
