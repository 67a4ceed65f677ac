import FocusEngine
import Foundation

/// Where the built binaries are and scratch directories for tests.
public enum TestEnvironment {
  /// The directory holding `tenfoot-broker` and friends: `$TENFOOT_BIN_DIR`, else the
  /// directory of the running test binary (SwiftPM puts products beside it).
  public static var binDirectory: String {
    if let explicit = ProcessInfo.processInfo.environment["TENFOOT_BIN_DIR"] { return explicit }
    var url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    // The test binary may sit inside a bundle directory (X.xctest/...): walk up to the products.
    while url.path != "/" {
      if FileManager.default.isExecutableFile(
        atPath: url.appendingPathComponent("tenfoot-broker").path)
      {
        return url.path
      }
      url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(".build/debug").path
  }

  /// The path of a built TenFoot executable.
  public static func binary(_ name: String) -> String { "\(binDirectory)/\(name)" }
}

/// A private temporary directory (mode 0700), removed on deinit.
public final class TemporaryDirectory: Sendable {
  /// Its path.
  public let path: String

  /// Creates a fresh directory under /tmp. Short, because ipc:// paths must fit in 107 bytes.
  public init() throws {
    var template = Array("/tmp/tf-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(cString: made)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes `text` to a file in the directory and returns its path.
  public func write(_ name: String, _ text: String) throws -> String {
    let file = "\(path)/\(name)"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }
}

/// Layouts for tests.
public enum TestLayouts {
  /// A rows×columns grid, ids `r<row>c<column>` in row-major order, 300×200 cells with 40 pt
  /// gaps from (100, 100), focus starting at `r0c0`.
  public static func grid(rows: Int, columns: Int) -> Layout {
    var items: [Item] = []
    for row in 0..<rows {
      for column in 0..<columns {
        items.append(
          Item(
            id: "r\(row)c\(column)", title: "Row \(row) Col \(column)",
            frame: Rect(
              x: 100 + Double(column) * 340, y: 100 + Double(row) * 240, width: 300, height: 200)
          ))
      }
    }
    return Layout(canvas: .tv, items: items, initialFocus: "r0c0")
  }

  /// The JSON layout file text of a grid, in the user-facing format.
  public static func gridJSON(rows: Int, columns: Int) -> String {
    let items = grid(rows: rows, columns: columns).items.map { item in
      """
          {"id": "\(item.id)", "title": "\(item.title)", "frame": [\(Int(item.frame.x)), \(Int(item.frame.y)), \(Int(item.frame.width)), \(Int(item.frame.height))]}
      """
    }
    return """
      {
        "canvas": {"width": 1920, "height": 1080},
        "items": [
      \(items.joined(separator: ",\n"))
        ],
        "initialFocus": "r0c0"
      }
      """
  }
}
