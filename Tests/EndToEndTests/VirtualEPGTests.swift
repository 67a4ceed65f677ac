import Foundation
import TestSupport
import Testing

/// `examples/epg.json`, an EPG of three channel rows whose programmes have lengths of their
/// own (virtual rows sized by runs) in one guide that scrolls them together, driven through
/// broker, headless screen and remote as separate processes.
@Suite("Virtual EPG across processes", .serialized)
struct VirtualEPGTests {
  static let example = repositoryRoot() + "/examples/epg.json"

  @Test("down lands on the programme of the next row that overlaps the focused one")
  func upAndDown() throws {
    let stack = try Stack(.ipc)
    let screen = try stack.screen(["--layout", Self.example])
    // bbc#2 spans 900–1700 (18:00 + 60 to 140 min at 10 points a minute).
    let first = try screen.waitForFrame("first frame") { $0.focused == "bbc#2" }
    #expect(first.frame.virtual["bbc#2"] == "BBC One 3", "\(first.frame.virtual)")

    // itv#3 spans 1200–1350: of the ITV programmes overlapping 900–1700 (itv#1 to itv#6), the
    // one whose middle (1275) is nearest bbc#2's (1300).
    let down = try stack.remote(["press", "down"])
    #expect(down.status == 0, "\(down.errors)")
    let itv = try screen.waitForFrame(from: first.index, "itv#3 focused") {
      $0.focused == "itv#3"
    }
    #expect(itv.frame.states["itv#3"] == "focused", "\(itv.frame.states)")
    #expect(itv.frame.virtual["itv#3"] == "ITV1 4", "\(itv.frame.virtual)")
    // Only the programmes in the guide's view are drawn: not ITV's last (2700–3350).
    #expect(itv.frame.virtual["itv#10"] == nil, "\(itv.frame.virtual.keys.sorted())")
    #expect(itv.frame.virtual["itv#0"] == "ITV1 1")

    // Channel 4's only programme overlapping 1200–1350 is c4#3 (900–1800).
    let further = try stack.remote(["press", "down"])
    #expect(further.status == 0, "\(further.errors)")
    let c4 = try screen.waitForFrame(from: itv.index, "c4#3 focused") { $0.focused == "c4#3" }
    #expect(c4.frame.virtual["c4#3"] == "Channel 4 4", "\(c4.frame.virtual)")

    // Right along Channel 4: c4#4 is 120 wide, then on to c4#8 and the 1000-wide c4#9
    // (2400–3400), which scrolls the guide 1,560 along (its trailing edge 40 inside the
    // viewport's): the view then holds 1860–3440 of every row.
    let right = try stack.remote(["press", "right", "right", "right", "right", "right", "right"])
    #expect(right.status == 0, "\(right.errors)")
    let late = try screen.waitForFrame(from: c4.index, "c4#9 focused") { $0.focused == "c4#9" }
    #expect(late.frame.virtual["c4#9"] == "Channel 4 10", "\(late.frame.virtual)")
    let drawn = late.frame.virtual.keys.sorted()
    #expect(late.frame.virtual["itv#9"] == "ITV1 10", "\(drawn)")  // 3300–3600
    #expect(late.frame.virtual["itv#10"] == nil, "\(drawn)")  // 3600–4250
    #expect(late.frame.virtual["bbc#7"] == "BBC One 8", "\(drawn)")  // 2300–2900
    #expect(late.frame.virtual["bbc#0"] == nil, "\(drawn)")
  }
}
