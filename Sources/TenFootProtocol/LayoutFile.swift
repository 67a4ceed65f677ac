import FocusEngine
import Foundation

/// Loads the user-facing JSON layout format (documented in docs/layout-format.md).
public enum LayoutFile {
  /// Reads, decodes and validates a layout file.
  public static func load(path: String) throws(LayoutFileError) -> Layout {
    // Read through a file handle to the end, not `Data(contentsOf:)`, so pipes and process
    // substitution (`--layout <(generate-layout)`) work as well as regular files.
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let reason = String(cString: strerror(errno))
      throw LayoutFileError(file: path, path: "", reason: "cannot open: \(reason)")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.readToEnd() ?? Data()
    } catch {
      throw LayoutFileError(
        file: path, path: "", reason: "cannot read: \(error.localizedDescription)")
    }
    return try decode(data, file: path)
  }

  /// Decodes and validates layout JSON; `file` names the source in errors.
  public static func decode(_ data: Data, file: String = "<layout>") throws(LayoutFileError)
    -> Layout
  {
    let layout: Layout
    do {
      layout = try JSONDecoder().decode(Layout.self, from: data)
    } catch let error as DecodingError {
      throw LayoutFileError(file: file, decoding: error)
    } catch {
      throw LayoutFileError(file: file, path: "", reason: "\(error)")
    }
    do {
      try layout.validate()
    } catch {
      throw LayoutFileError(file: file, path: error.path, reason: error.reason)
    }
    return layout
  }
}

/// A layout file that cannot be used, with the JSON path of the problem.
public struct LayoutFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file name.
  public var file: String
  /// The path inside the JSON, like `items[3].frame` (empty for the whole file).
  public var path: String
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  public init(file: String, path: String, reason: String) {
    self.file = file
    self.path = path
    self.reason = reason
  }

  init(file: String, decoding error: DecodingError) {
    func render(_ codingPath: [any CodingKey]) -> String {
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return text
    }
    switch error {
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"]
      let reason = underlying.map { "invalid JSON: \($0)" } ?? context.debugDescription
      self.init(file: file, path: render(context.codingPath), reason: reason)
    case .keyNotFound(let key, let context):
      let path = render(context.codingPath + [key])
      self.init(file: file, path: path, reason: "required field is missing")
    case .typeMismatch(let type, let context):
      self.init(file: file, path: render(context.codingPath), reason: "expected \(type)")
    case .valueNotFound(let type, let context):
      self.init(
        file: file, path: render(context.codingPath), reason: "expected \(type), found null")
    @unknown default:
      self.init(file: file, path: "", reason: "\(error)")
    }
  }

  /// `file: path: reason`.
  public var description: String {
    path.isEmpty ? "\(file): \(reason)" : "\(file): \(path): \(reason)"
  }
}
