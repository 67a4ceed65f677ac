import ArgumentParser
import FocusEngine
import TenFootCLI
import TenFootProtocol

/// `tenfoot-broker simulate`: runs inputs through the focus engine on a layout file, offline,
/// and prints where focus goes after each one.
struct SimulateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Run inputs through the focus engine on a layout file and print each result.",
    discussion: """
      Prints one line per input: the input, the focused item afterwards, whether focus moved, \
      and the heading (or the bump). With --json, one JSON object per line: \
      {"input", "focused" (null if none), "moved", "heading" (null if focus did not move), \
      "effects"}. Nothing is sent anywhere; the broker's engine runs in this process.
      """)

  @OptionGroup var engine: EngineOptions

  @Option(
    name: .customLong("input"),
    help: ArgumentHelp(
      "An input, repeatable, applied in order: up, down, left, right, tab, shift-tab, select.",
      valueName: "input"))
  var inputs: [FocusInput] = []

  @Flag(help: "One JSON object per input instead of text.")
  var json = false

  /// One line of `--json` output.
  struct Step: Encodable {
    var input: String
    var focused: String?
    var moved: Bool
    var heading: String?
    var effects: [String]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(input, forKey: .input)
      try container.encode(focused, forKey: .focused)  // null, not omitted
      try container.encode(moved, forKey: .moved)
      try container.encode(heading, forKey: .heading)
      try container.encode(effects, forKey: .effects)
    }

    private enum CodingKeys: String, CodingKey {
      case input, focused, moved, heading, effects
    }
  }

  func run() throws {
    var state = try engine.makeState()
    if inputs.isEmpty {
      throw ValidationError(
        "give at least one --input (up, down, left, right, tab, shift-tab, select)")
    }
    if !json { print("start: \(state.focused ?? "nothing focused")") }
    for input in inputs {
      let before = state.focused
      var effects: [FocusEffect] = []
      for event in input.events { effects += reduce(&state, event) }
      var heading: String?
      for effect in effects {
        if case .focusChanged(let context) = effect { heading = context.heading.rawValue }
      }
      let step = Step(
        input: input.rawValue, focused: state.focused, moved: state.focused != before,
        heading: heading, effects: effects.map { Tenfoot_V1_FocusEffect($0).summary })
      if json {
        try JSONLine.print(step)
      } else {
        print(Self.describe(step, from: before))
      }
    }
  }

  static func describe(_ step: Step, from before: String?) -> String {
    let target = step.focused ?? "nothing"
    let facts = step.effects.isEmpty ? "no change" : step.effects.joined(separator: "; ")
    if step.moved {
      return "\(step.input): \(before ?? "nothing") → \(target) (\(facts))"
    }
    return "\(step.input): stays on \(target) (\(facts))"
  }
}
