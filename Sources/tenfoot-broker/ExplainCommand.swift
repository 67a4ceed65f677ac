import ArgumentParser
import FocusEngine
import TenFootCLI

/// `tenfoot-broker explain`: the focus debugger on a layout file: why an item can or cannot
/// take focus, the Tab loop, the group tree.
struct ExplainCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Explain focus on a layout file: an item, the Tab loop, or the group tree.",
    discussion: """
      --item ID prints whether the item can take focus and why, its groups and priority, \
      whether it is a group's primary item, its Tab stop, and the arrows that reach it from \
      the focused item. --tab-loop prints the Tab loop in order with the item each stop \
      focuses. --tree prints the groups with their options and primary items.
      """)

  @OptionGroup var engine: EngineOptions

  @Option(help: "The item to explain.")
  var item: String?

  @Flag(help: "Print the Tab loop.")
  var tabLoop = false

  @Flag(help: "Print the group tree.")
  var tree = false

  @Flag(help: "JSON instead of text.")
  var json = false

  /// The `--json` form of an item explanation.
  struct ItemReport: Encodable {
    var item: String
    var canFocus: Bool
    var focused: String?
    var reasons: [String]
  }

  /// The `--json` form of a Tab stop.
  struct StopReport: Encodable {
    var group: String?
    var entry: String?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(group, forKey: .group)
      try container.encode(entry, forKey: .entry)
    }

    private enum CodingKeys: String, CodingKey { case group, entry }
  }

  func validate() throws {
    let chosen = [item != nil, tabLoop, tree].filter { $0 }.count
    guard chosen == 1 else {
      throw ValidationError("choose exactly one of --item ID, --tab-loop, --tree")
    }
  }

  func run() throws {
    let state = try engine.makeState()
    if let item {
      let explanation = state.explain(item)
      // An id the layout does not hold is the user's mistake: said on standard error, exit 1.
      guard state.layout.items.contains(where: { $0.id == item }) else {
        throw CLIError(explanation.lines.joined(separator: "; "))
      }
      if json {
        try JSONLine.print(
          ItemReport(
            item: item, canFocus: explanation.canFocus, focused: state.focused,
            reasons: explanation.lines))
      } else {
        explanation.lines.forEach { print($0) }
      }
    } else if tabLoop {
      let loop = state.tabLoop()
      if json {
        try JSONLine.print(loop.map { StopReport(group: $0.group, entry: $0.entry) })
      } else {
        for (position, stop) in loop.enumerated() {
          print(
            "\(position + 1). \(stop.group ?? "(top level)") → \(stop.entry ?? "nothing focusable")"
          )
        }
      }
    } else {
      let lines = state.groupTree()
      if json {
        try JSONLine.print(lines)
      } else {
        lines.forEach { print($0) }
      }
    }
  }
}
