import ArgumentParser
import FocusEngine
import RemoteCore
import TenFootProtocol

extension RemoteCommand {
  /// `tenfoot-remote focus ID | --item ID | --group ID`
  struct Focus: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Ask the broker to focus an item or group (programmatic focus).",
      discussion: """
        A bare ID may name an item or a group; the broker refuses it as ambiguous if it names \
        both. The broker also refuses unknown ids, items that cannot take focus and targets \
        outside a group that traps focus; the reason is printed and the exit status is 1.
        """)

    @OptionGroup var options: RemoteOptions

    @Argument(help: "An item or group id.")
    var id: String?

    @Option(help: "An item id.")
    var item: String?

    @Option(help: "A group id: focus goes to its primary item.")
    var group: String?

    func validate() throws {
      guard [id, item, group].compactMap({ $0 }).count == 1 else {
        throw ValidationError("give exactly one of ID, --item ID, --group ID")
      }
    }

    func run() throws {
      let target: FocusTarget =
        if let item { .item(item) } else if let group { .group(group) } else { .any(id ?? "") }
      let remote = try options.connect()
      // A refusal propagates: ArgumentParser prints it and exits with status 1.
      let result = try remote.requestFocus(target)
      let what =
        result.effects.isEmpty
        ? "already focused" : result.effects.map(\.summary).joined(separator: "; ")
      print("focus: \(what); focused \(result.focused ?? "none")")
    }
  }

  /// `tenfoot-remote debug …`: the focus debugger on the live session.
  struct Debug: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "The focus debugger on the live screen session.",
      discussion: """
        --explain ID says why an item can or cannot take focus; --tab-loop prints the Tab \
        loop; --tree the group tree; --dry-run INPUT where focus would go (nothing changes).
        """)

    @OptionGroup var options: RemoteOptions

    @Option(help: "Explain this item.")
    var explain: String?

    @Flag(help: "Print the Tab loop.")
    var tabLoop = false

    @Flag(help: "Print the group tree.")
    var tree = false

    @Option(help: "Where this input would take focus.")
    var dryRun: FocusInput?

    func validate() throws {
      let chosen = [explain != nil, tabLoop, tree, dryRun != nil].filter { $0 }.count
      guard chosen == 1 else {
        throw ValidationError(
          "choose exactly one of --explain ID, --tab-loop, --tree, --dry-run INPUT")
      }
    }

    func run() throws {
      let query: DebugQuery =
        if let explain { .explainItem(explain) } else if tabLoop { .tabLoop } else if tree {
          .groupTree
        } else { .dryRun(dryRun?.rawValue ?? "") }
      let remote = try options.connect()
      print(try remote.debug(query))
    }
  }
}
