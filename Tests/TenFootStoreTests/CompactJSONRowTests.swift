import Foundation
import TenFootStore
import Testing

/// The hand-written JSON of a session record (a zone's `jsonb` column) is, as JSON, what `JSONEncoder`
/// with sorted keys writes, and reads back with `JSONDecoder` as the same record.
@Suite("Compact JSON of a session record")
struct CompactJSONRowTests {
  static let rows: [SessionRow] = [
    SessionRow(screenID: "main", focused: nil, selected: []),
    SessionRow(
      screenID: "tv-1", focused: "r1c2", selected: ["b", "a"], text: ["search": "Quiet"],
      remembered: ["row1": "r1c2", "menu": "m0"], rememberedOwn: ["row1": "r1c1"]),
    SessionRow(
      screenID: "q\"uote\\", focused: "tab\there\nnew\u{1}", selected: ["é", "\u{301}"],
      text: ["k\"": "v\u{7f}\r"], remembered: [:], rememberedOwn: ["z": "ü"]),
  ]

  @Test(
    "the same bytes as JSONEncoder with sorted keys, and the same record read back", arguments: rows
  )
  func sameAsEncoder(_ row: SessionRow) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let compact = CompactJSON.row(row)
    let decoded = try JSONDecoder().decode(SessionRow.self, from: Data(compact.utf8))
    #expect(decoded == row)
    let reference = String(decoding: try encoder.encode(row), as: UTF8.self)
    // Equal as JSON values (JSONEncoder escapes some characters differently, e.g. U+007F).
    let parsed = try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? NSDictionary
    let expected = try JSONSerialization.jsonObject(with: Data(reference.utf8)) as? NSDictionary
    #expect(parsed == expected, "\(compact) vs \(reference)")
  }
}
