#if canImport(Glibc)
import Glibc
#endif

/// A fixed array for a large index read at random (the snapping grid's
/// segments), kept on huge pages where the system offers them.
///
/// Read at random, an array of tens of megabytes on 4 kB pages misses the
/// processor's address translation cache (a few thousand entries: 8 MB)
/// on nearly every read, and each miss walks the page tables before the
/// read itself can start; on 2 MB pages a few dozen entries cover it.
/// Arrays of 2 MB or more are therefore placed on a 2 MB boundary and, on
/// Linux, advised to the kernel as huge-page memory (`madvise` with
/// `MADV_HUGEPAGE`, which transparent huge pages honour in their default
/// `madvise` mode; without them the array works the same on small pages).
/// Smaller arrays stay on small pages, where a huge page would only waste
/// memory. The elements are copied in once and never change, so the array
/// is safe to share between threads.
final class HugePageArray<Element: Sendable>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    /// How many elements it holds.
    let count: Int

    /// A copy of `elements`.
    init(_ elements: [Element]) {
        count = elements.count
        let bytes = max(count * MemoryLayout<Element>.stride, 1)
        let onHugePages = bytes >= Self.hugePageBytes
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: bytes, alignment: onHugePages ? Self.hugePageBytes : MemoryLayout<Element>.alignment)
        #if canImport(Glibc)
        // Before the first write, so that the pages are huge from the start; a refusal only leaves them small.
        if onHugePages { _ = madvise(raw, bytes, MADV_HUGEPAGE) }
        #endif
        base = raw.bindMemory(to: Element.self, capacity: count)
        elements.withUnsafeBufferPointer { source in
            if let first = source.baseAddress { base.initialize(from: first, count: count) }
        }
    }

    deinit {
        base.deinitialize(count: count)
        UnsafeMutableRawPointer(base).deallocate()
    }

    /// The element at `index`, read in place; `index` must lie in `0..<count`.
    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
            return UnsafePointer(base + index)
        }
    }

    /// The size of a huge page on x86-64 and ARM64 Linux.
    private static var hugePageBytes: Int { 2 << 20 }
}
