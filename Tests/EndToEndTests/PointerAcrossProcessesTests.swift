import Foundation
import TestSupport
import Testing

/// The pointer through three real processes: `tenfoot-remote point` → broker → headless screen.
@Suite("Pointer across processes", .serialized)
struct PointerAcrossProcessesTests {
  /// A row of five 200×300 posters (`p0`…`p4`, 250 apart) and a search field.
  static let layout = {
    var items = (0..<5).map { column in
      #"{"id": "p\#(column)", "frame": [\#(100 + column * 250), 300, 200, 300]}"#
    }
    items.append(#"{"id": "search", "kind": "textField", "frame": [100, 50, 600, 80]}"#)
    return #"{"initialFocus": "p0", "items": [\#(items.joined(separator: ", "))]}"#
  }()

  /// The frame's `"pointer"` object, if it has one.
  static func pointer(_ frame: Frame) -> [String: Any]? {
    guard let data = frame.line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return object["pointer"] as? [String: Any]
  }

  @Test("point --to a poster's centre focuses it and shows the pointer on it; an arrow hides it")
  func pointThenArrow() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "p0" }

    // p2's centre: (100 + 500 + 100, 450).
    let point = try stack.remote(["point", "--to", "700,450"])
    #expect(point.status == 0, "\(point.errors)")
    let pointed = try screen.waitForFrame(from: first.index, "p2 focused by the pointer") {
      $0.focused == "p2" && Self.pointer($0)?["target"] as? String == "p2"
    }
    let shown = try #require(Self.pointer(pointed.frame))
    #expect(shown["visible"] as? Bool == true, "\(pointed)")
    #expect(shown["effect"] as? String == "lift", "\(pointed)")
    #expect(shown["x"] as? Double == 700, "\(pointed)")

    let right = try stack.remote(["press", "right"])
    #expect(right.status == 0, "\(right.errors)")
    let moved = try screen.waitForFrame(from: pointed.index, "p3 focused by the arrow") {
      $0.focused == "p3"
    }
    let hidden = try #require(Self.pointer(moved.frame))
    #expect(hidden["visible"] as? Bool == false, "\(moved)")
    #expect(hidden["target"] is NSNull, "\(moved)")
  }

  @Test("over the search field the pointer is an I-beam; a click activates the pointed poster")
  func shapeAndClick() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    let first = try screen.waitForFrame("first frame") { $0.focused == "p0" }
    let search = try stack.remote(["point", "--to", "300,90"])
    #expect(search.status == 0, "\(search.errors)")
    let beam = try screen.waitForFrame(from: first.index, "the I-beam") {
      Self.pointer($0)?["shape"] as? String == "ibeam"
    }
    #expect(beam.frame.focused == "search")
    // A script: point at p1 and click it.
    let script = try stack.directory.write("click.txt", "point to 450,450\npoint click\n")
    let clicked = try stack.remote(["script", script])
    #expect(clicked.status == 0, "\(clicked.errors)")
    let activated = try screen.waitForFrame(from: beam.index, "p1 activated") {
      $0.events.contains("activated:p1")
    }
    #expect(activated.frame.focused == "p1")
  }

  @Test("non-finite pointer coordinates are refused with INVALID_INPUT")
  func invalidPointer() throws {
    let stack = try Stack(.ipc)
    let file = try stack.directory.write("row.json", Self.layout)
    let screen = try stack.screen(["--layout", file])
    _ = try screen.waitForFrame("first frame") { $0.focused == "p0" }
    let bad = try stack.remote(["point", "--to", "nan,5"])
    #expect(bad.status != 0)
    #expect(bad.errors.joined().contains("bad point"), "\(bad.errors)")
  }
}

extension PointerAcrossProcessesTests {
  @Test("simulate takes point:X,Y and click")
  func simulate() throws {
    let directory = try TemporaryDirectory()
    let file = try directory.write("row.json", Self.layout)
    let broker = try ChildProcess(
      TestEnvironment.binary("tenfoot-broker"),
      [
        "simulate", "--layout", file, "--input", "point:700,450", "--input", "click",
        "--input", "right",
      ])
    #expect(try broker.waitForExit(timeout: 20) == 0, "\(broker.errors)")
    let lines = broker.output
    #expect(lines.contains { $0.hasPrefix("point:700,450: p0 → p2") }, "\(lines)")
    #expect(
      lines.contains { $0.hasPrefix("click: stays on p2") && $0.contains("activated") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("right: p2 → p3") }, "\(lines)")
  }
}
