extension Dictionary {
    /// Changes the value for `key` in place; nothing when there is none.
    ///
    /// The engine's state keeps requests, taxis, reservations and queues as
    /// values in dictionaries. `dictionary[key]?.field = value` changes them
    /// through an optional copy of the whole value, whose coroutine frame
    /// is allocated on the heap: some 250 ns a change of a request's record
    /// and over 100 ns even for a queue, measured, where changing the
    /// stored value where it lies costs some 30 ns; the engine makes several
    /// changes for every request.
    @inline(__always)
    mutating func modify(_ key: Key, _ change: (inout Value) -> Void) {
        guard let index = index(forKey: key) else { return }
        change(&values[index])
    }

    /// As ``modify(_:_:)``, then removes the value when `isGone` says it is
    /// (a queue left empty), all at the one place found for `key`.
    @inline(__always)
    mutating func modify(_ key: Key, removingWhen isGone: (Value) -> Bool, _ change: (inout Value) -> Void) {
        guard let index = index(forKey: key) else { return }
        change(&values[index])
        if isGone(values[index]) { remove(at: index) }
    }
}
