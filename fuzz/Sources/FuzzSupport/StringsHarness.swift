import BrokerCore
import FocusEngine
import ScreenCore
import TenFootProtocol
import TerminalScreen
import TerminalUI

/// The `strings` target (issue 17): arbitrary bytes as a title, a text value and an id, through
/// the door's rules and the terminal renderer's composition (as titles, subtitles and bodies). Traps (a finding) when
/// - the rules pass an id with a character outside the grammar, or text with a control;
/// - the terminal filter lets a control character through, or measures its own output
///   differently;
/// - any row of the composed grid is not exactly the terminal's width, or a border is not in
///   the column it has when every string is empty;
/// - the grid's escape-sequence output holds anything but cursor moves and styles (an input
///   byte reached the terminal as ESC, CSI, OSC, DCS or a C1 control).
public enum StringsHarness {
  /// Sizes tried, picked by the input's length.
  static let sizes = [(80, 24), (120, 40), (40, 12), (57, 17)]

  /// One input: up to three strings separated by `0xFF` (never valid UTF-8), decoded leniently
  /// (invalid UTF-8 becomes `U+FFFD`, as a careless decoder would let it in).
  public static func run(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0xFF, maxSplits: 2, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    let title = parts.first ?? ""
    let value = parts.count > 1 ? parts[1] : title
    let id = parts.count > 2 ? parts[2] : value
    checkRules(title: title, value: value, id: id)
    checkFilter(title)
    checkFilter(value)
    let (columns, rows) = sizes[bytes.count % sizes.count]
    checkComposition(title: title, value: value, id: id, columns: columns, rows: rows)
  }

  /// The door: what the rules accept holds no control, and the broker's limits agree.
  static func checkRules(title: String, value: String, id: String) {
    if TextRules.idProblem(id) == nil {
      precondition(id.unicodeScalars.allSatisfy(TextRules.isIDScalar), "id rule let through")
    }
    if TextRules.textProblem(title) == nil {
      precondition(!title.unicodeScalars.contains(where: TextRules.isControl), "text rule")
    }
    var input = Tenfoot_V1_Input()
    input.screenID = "main"
    input.text = .with { $0.edit = .append(value) }
    let envelope = Tenfoot_V1_Envelope(
      sender: id, seq: 1, sentAtNanoseconds: 1, body: .input(input))
    let problem = InputLimits.problem(envelope)
    if problem == nil {
      precondition(TextRules.idProblem(id) == nil || id.isEmpty, "a bad sender passed the door")
      precondition(TextRules.textProblem(value) == nil, "bad typed text passed the door")
    }
    let layout = Layout(items: [
      Item(id: "a", title: title, frame: Rect(x: 0, y: 0, width: 10, height: 10))
    ])
    if (try? layout.validate()) != nil {
      precondition(TextRules.textProblem(title) == nil, "a bad title passed validation")
    }
  }

  /// The terminal filter: glyphs are printable and one or two cells; filtering is idempotent.
  static func checkFilter(_ text: String) {
    let glyphs = TerminalText.glyphs(text)
    for glyph in glyphs {
      precondition(glyph.width == 1 || glyph.width == 2, "glyph width \(glyph.width)")
      precondition(
        !glyph.character.unicodeScalars.contains(where: TerminalBytes.isTerminalControl), "control")
    }
    let printed = TerminalText.printable(text)
    precondition(TerminalText.printable(printed) == printed, "the filter is not idempotent")
    precondition(TerminalText.width(printed) == TerminalText.width(text), "width changed")
    let cut = TerminalText.truncated(text, toWidth: 7)
    precondition(TerminalText.width(cut) <= 7, "truncation overflowed")
  }

  /// A row of every kind of item, the strings everywhere a frame shows text. The row's heading
  /// is fixed: the focused card's lift stops short of a heading's text, so a heading's text may
  /// move the card's border by design; the fuzzed label sits below the last row, out of reach
  /// of any lift.
  static func frame(title: String, value: String, id: String) -> ScreenFrame {
    let items = [
      Item(
        id: "heading", title: "Row heading", frame: Rect(x: 40, y: 40, width: 1800, height: 80),
        kind: .label),
      Item(
        id: "label", title: title, frame: Rect(x: 40, y: 1010, width: 1800, height: 60),
        kind: .label),
      Item(
        id: "focused", title: title, frame: Rect(x: 80, y: 200, width: 400, height: 400),
        content: ItemContent(body: value)),
      Item(id: "selected", title: value, frame: Rect(x: 560, y: 200, width: 400, height: 400)),
      Item(
        id: "field", title: title, frame: Rect(x: 1040, y: 200, width: 400, height: 400),
        kind: .textField),
      Item(
        id: "off", title: id + title, frame: Rect(x: 1520, y: 200, width: 360, height: 400),
        available: false),
      Item(
        id: "plain", title: value + title, frame: Rect(x: 80, y: 700, width: 1760, height: 300),
        content: ItemContent(subtitle: id, body: title + "\n" + value)),
    ]
    var frame = ScreenFrame(
      screen: id, epoch: 1, seq: 2, layout: Layout(items: items), focused: "focused",
      states: [
        "focused": .focused, "selected": .selected, "field": .unfocused, "off": .unavailable,
        "plain": .unfocused,
      ],
      lastEvent: value)
    frame.text = ["field": value]
    return frame
  }

  static func checkComposition(title: String, value: String, id: String, columns: Int, rows: Int) {
    let grid = TerminalRenderer.compose(
      frame(title: title, value: value, id: id), columns: columns, rows: rows,
      colorMode: .truecolor)
    let plain = plainGrids[sizes.firstIndex { $0 == (columns, rows) } ?? 0]
    for y in 0..<rows {
      var width = 0
      for x in 0..<columns {
        let cell = grid[x, y]
        precondition(
          !cell.character.unicodeScalars.contains(where: TerminalBytes.isTerminalControl), "control"
        )
        if cell.isContinuation {
          precondition(x > 0 && grid[x - 1, y].width == 2, "a continuation without its half")
        } else {
          width += cell.width
        }
        if borders.contains(plain[x, y].character) {
          precondition(grid[x, y].character == plain[x, y].character, "a border moved")
        }
      }
      precondition(width == columns, "row \(y) is \(width) cells wide, not \(columns)")
      precondition(TerminalText.width(grid.rowText(y)) == columns, "row \(y) measures wrong")
    }
    precondition(
      TerminalBytes.onlyCursorAndStyle(grid.ansiDiff(from: nil, colorMode: .truecolor)), "repaint")
    precondition(
      TerminalBytes.onlyCursorAndStyle(grid.ansiDiff(from: plain, colorMode: .truecolor)), "diff")
  }

  /// The frame with every string empty at each of `sizes`: where the borders belong.
  static let plainGrids = sizes.map { columns, rows in
    TerminalRenderer.compose(
      frame(title: "", value: "", id: ""), columns: columns, rows: rows, colorMode: .truecolor)
  }

  /// The border and shadow glyphs of the terminal renderer.
  static let borders = Set("┌┐└┘─│╔╗╚╝═║▒")
}
