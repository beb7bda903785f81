import Foundation
import JSONKit
import Testing

@Suite(.timeLimit(.minutes(20))) struct JSONParserTests {
    /// Numbers round exactly as every other reader rounds them.
    @Test(arguments: ["-73.99999999999997", "40.7128", "1e-7", "-0.0", "123456789012345678", "5E+2"])
    func readsNumbersExactly(_ text: String) throws {
        #expect(try JSONParser.parse(text) == .number(Double(text)!))
    }

    @Test func readsNestedDocument() throws {
        let value = try JSONParser.parse(#"{"a": [1, true, null, "x\u00e9\n"], "b": {"c": -2.5}}"#)
        #expect(value["a"] == .array([.number(1), .bool(true), .null, .string("xé\n")]))
        #expect(value["b"]?["c"] == .number(-2.5))
    }

    @Test func readsSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude95""#) == .string("🚕"))
    }

    /// Broken JSON is reported with the line and column of the problem.
    @Test(arguments: [
        ("{\"a\": 1,\n  \"b\" 2}", 2, 7, "expected ':'"),
        ("[1, 2", 1, 6, "expected ',' or ']'"),
        ("{\"a\": 01}", 1, 7, "leading zero"),
        ("[1] x", 1, 5, "unexpected text after"),
        ("\"abc", 1, 5, "unterminated string"),
    ])
    func reportsWhereTextIsBroken(text: String, line: Int, column: Int, message: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.message.contains(message)
        }
    }

    @Test func refusesAbsurdNesting() {
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse(String(repeating: "[", count: 10_000))
        }
    }

    @Test func writesBackWhatItReads() throws {
        let text = #"{"id":42,"name":"Upper \"East\" Side","tags":[1.5,false,null]}"#
        #expect(try JSONParser.parse(text).serialized == text)
    }
}
