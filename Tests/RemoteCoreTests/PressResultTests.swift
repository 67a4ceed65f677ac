import Testing

@testable import RemoteCore

@Suite("Press results as people read them")
struct PressResultTests {
  @Test("runs of the same effect are written once with their count; others stay in order")
  func coalesced() {
    let bumps = Array(repeating: "bump right: no item that way", count: 29)
    #expect(PressResult.coalesced(bumps) == ["bump right: no item that way ×29"])
    #expect(
      PressResult.coalesced(["a", "a", "b", "a"]) == ["a ×2", "b", "a"],
      "only consecutive runs are merged: the order of what happened stays")
    #expect(PressResult.coalesced([]).isEmpty)
  }
}
