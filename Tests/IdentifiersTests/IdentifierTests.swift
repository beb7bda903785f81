import Foundation
import Identifiers
import Testing

/// What every id shares: its text or number, how it is written, read,
/// encoded and ordered.
@Suite(.timeLimit(.minutes(20))) struct IdentifierTests {
    struct CarID: TextIdentifier {
        let text: String
        init(_ text: String) { self.text = text }
    }

    struct TicketID: NumberedIdentifier {
        static let letter: Character = "T"
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func aTextIDIsItsTextEverywhere() throws {
        let id: CarID = "TX 7/\"b\""
        #expect(id.description == "TX 7/\"b\"")
        #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == #"["TX 7\/\"b\""]"#)
        #expect(try JSONDecoder().decode([CarID].self, from: Data(#"["A1"]"#.utf8)) == [CarID("A1")])
        #expect([CarID("b"), CarID("B"), CarID("a")].sorted() == [CarID("B"), CarID("a"), CarID("b")])
    }

    @Test func aNumberedIDIsShownWithItsLetterAndEncodedAsItsNumber() throws {
        let id = TicketID(12)
        #expect(id.description == "T12")
        #expect(String(decoding: try JSONEncoder().encode([id]), as: UTF8.self) == "[12]")
        #expect(try JSONDecoder().decode([TicketID].self, from: Data("[3]".utf8)) == [TicketID(3)])
        #expect(TicketID(2) < TicketID(10), "older first")
    }

    @Test(arguments: [("T12", 12), ("12", 12), ("T1", 1), ("T999999999999", 999_999_999_999)])
    func aNumberedIDIsReadFromItsText(text: String, number: Int) {
        #expect(TicketID(text: text) == TicketID(number))
    }

    @Test(arguments: ["", "T", "R12", "T0", "T-3", "T1x", "T１２", "T1000000000000", " T1"])
    func anythingElseIsNoNumberedID(text: String) {
        #expect(TicketID(text: text) == nil)
    }
}
