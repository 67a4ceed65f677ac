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
      "An input, repeatable, applied in order: up, down, left, right, tab, shift-tab, select, "
        + "point:X,Y (the pointer to canvas point X,Y) or click (the pointer's button).",
      valueName: "input"))
  var inputs: [SimulatedInput] = []

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
    for (number, input) in inputs.enumerated() {
      let before = state.focused
      var effects: [FocusEffect] = []
      // Inputs 100 ms apart on the pointer's clock (well inside its idle timeout).
      for event in input.events(in: state, at: UInt64(number + 1) * 100_000_000) {
        effects += reduce(&state, event)
      }
      var heading: String?
      for effect in effects {
        if case .focusChanged(let context) = effect { heading = context.heading.rawValue }
      }
      let step = Step(
        input: input.description, focused: state.focused, moved: state.focused != before,
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

/// One `--input` of `simulate`: a named input, or a pointer move or click.
enum SimulatedInput: ExpressibleByArgument, CustomStringConvertible {
  case named(FocusInput)
  /// `point:X,Y`: the pointer moves to a canvas point (clamped to the canvas).
  case point(x: Double, y: Double)
  /// `click`: the pointer's primary button down and up where it is.
  case click

  init?(argument: String) {
    if argument == "click" {
      self = .click
    } else if argument.hasPrefix("point:") {
      let parts = argument.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite,
        y.isFinite
      else { return nil }
      self = .point(x: x, y: y)
    } else if let input = FocusInput(argument) {
      self = .named(input)
    } else {
      return nil
    }
  }

  var description: String {
    switch self {
    case .named(let input): input.rawValue
    case .point(let x, let y): "point:\(Self.number(x)),\(Self.number(y))"
    case .click: "click"
    }
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// The engine events of this input on `state`, stamped `time` on the pointer's clock.
  func events(in state: FocusState, at time: UInt64) -> [FocusEvent] {
    switch self {
    case .named(let input): return input.events
    case .point(let x, let y):
      var tracker = PointerTracker()
      let event = PointerEvent(.moved, x: x, y: y, at: time)
      guard let sample = tracker.resolve(event, canvas: state.layout.canvas, start: nil) else {
        return []
      }
      return [.pointer(sample)]
    case .click:
      let spot = state.pointer.position
      return [
        .pointer(
          PointerSample(.down, position: spot, buttons: PointerEvent.primaryButton, at: time)),
        .pointer(PointerSample(.up, position: spot, at: time)),
      ]
    }
  }
}
