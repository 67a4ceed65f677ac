import ArgumentParser
import FocusEngine
import Foundation
import TenFootCLI
import TenFootProtocol

/// The options the offline engine commands share: a layout file, a starting focus and a
/// search-model override.
struct EngineOptions: ParsableArguments {
  @Option(help: "The layout file (JSON, see docs/layout-format.md).")
  var layout: String

  @Option(help: "The item focused before the first input (default: the layout's initial focus).")
  var focus: String?

  @Option(
    help: ArgumentHelp(
      "Search model for every move, overriding the layout's and its groups'.",
      valueName: "tvos|android"))
  var search: SearchModel?

  /// The engine state the options describe, or a failure that names the problem.
  func makeState() throws -> FocusState {
    var layout: Layout
    do {
      layout = try LayoutFile.load(path: self.layout)
    } catch {
      throw EngineInputError.unreadableLayout(error)
    }
    if let search {
      layout.search = search
      layout.groups = layout.groups.map { Self.override($0, search) }
    }
    var state: FocusState
    do {
      state = try FocusState(layout: layout)
    } catch {
      throw EngineInputError.invalidLayout(path: self.layout, error)
    }
    if let focus {
      if case .failure(let denial) = state.checkFocusRequest(.item(focus)) {
        throw EngineInputError.refusedFocus(item: focus, reason: denial.message)
      }
      reduce(&state, .requestFocus(.item(focus)))
    }
    return state
  }

  private static func override(_ group: Group, _ search: SearchModel) -> Group {
    var group = group
    group.search = search
    group.groups = group.groups.map { override($0, search) }
    return group
  }
}

/// Why an engine command cannot start. argument-parser prints it as `Error: <description>` and
/// exits with status 1 (a usage error, such as an unknown input name, exits with 64).
enum EngineInputError: Error, CustomStringConvertible {
  /// The layout file could not be read or decoded (the cause names the file).
  case unreadableLayout(any Error)
  /// The layout at `path` decoded but is not a valid layout.
  case invalidLayout(path: String, any Error)
  /// `--focus` names an item that cannot take focus.
  case refusedFocus(item: String, reason: String)

  var description: String {
    switch self {
    case .unreadableLayout(let cause): "\(cause)"
    case .invalidLayout(let path, let cause): "\(path): \(cause)"
    case .refusedFocus(let item, let reason): "--focus \(item): \(reason)"
    }
  }
}

/// Writes one compact JSON object per line (keys sorted, so output is stable).
enum JSONLine {
  /// Encodes `value` on one line.
  static func print<Value: Encodable>(_ value: Value) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    Swift.print(String(decoding: data, as: UTF8.self))
  }
}
