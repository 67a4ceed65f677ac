import ArgumentParser
import FocusEngine
import Foundation
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
      throw CleanExit.message("\(error)", code: 2)
    }
    if let search {
      layout.search = search
      layout.groups = layout.groups.map { Self.override($0, search) }
    }
    var state: FocusState
    do {
      state = try FocusState(layout: layout)
    } catch {
      throw CleanExit.message("\(self.layout): \(error)", code: 2)
    }
    if let focus {
      if case .failure(let denial) = state.checkFocusRequest(.item(focus)) {
        throw CleanExit.message("--focus \(focus): \(denial.message)", code: 2)
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

extension SearchModel: ExpressibleByArgument {}

extension FocusInput: ExpressibleByArgument {
  /// Parses an input name (`right`, `shift-tab`, `select`, …).
  public init?(argument: String) {
    self.init(argument)
  }

  /// The names `--input` accepts, for help and errors.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// An error that ends a command with a message on standard error and an exit status.
enum CleanExit {
  /// Prints `message` to standard error and returns the error that exits with `code`.
  static func message(_ message: String, code: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("tenfoot-broker: \(message)\n".utf8))
    return ExitCode(code)
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
