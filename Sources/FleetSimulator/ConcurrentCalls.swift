/// Runs `body` for each of `indices`, at most `width` at once (the service
/// is a few hundred simulated users' one address; a burst of thousands of
/// calls at once would only queue in the client), and returns the results
/// in the order of `indices`.
/// - Throws: the first error of `body`.
func concurrentlyInOrder<Value: Sendable>(
    _ indices: Range<Int>, width: Int, _ body: @escaping @Sendable (Int) async throws -> Value
) async throws -> [Value] {
    try await withThrowingTaskGroup(of: (Int, Value).self) { group in
        var results: [Int: Value] = [:]
        for index in indices {
            if index - indices.lowerBound >= width, let finished = try await group.next() {
                results[finished.0] = finished.1
            }
            group.addTask { (index, try await body(index)) }
        }
        for try await (done, result) in group { results[done] = result }
        return indices.compactMap { results[$0] }
    }
}
