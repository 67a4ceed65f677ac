import FocusEngine
import Foundation
import QREncoder
import ScreenCore
import TerminalUI

/// Draws frames full-screen in a terminal: the alternate screen in raw mode, the layout scaled
/// from its canvas to the terminal's cells, only the changed cells written per frame, a full
/// repaint after a resize (SIGWINCH), and the terminal given back by ``stop()`` — or by the
/// ``RawTerminal`` guard if the process dies first.
///
/// Drawing is split in two: ``compose(_:columns:rows:colorMode:)`` is a pure function from a
/// frame to a ``CellGrid`` (tested without a terminal), and ``render(_:)`` writes the
/// ``CellGrid/ansiDiff(from:colorMode:)`` against the previous grid with one write loop.
///
/// Ctrl-C keeps raising SIGINT (`ISIG` stays on): the screen reads no keys, and the program's
/// SIGINT handler shuts the loop down cleanly, which ends in ``stop()``.
public final class TerminalRenderer: Renderer, PairingDisplay, LinkDisplay {
  private let output: Int32
  private let colorMode: ColorMode
  private let display: DisplayOptions
  private let fixedSize: (columns: Int, rows: Int)?
  private var size: (columns: Int, rows: Int)
  private var terminal: RawTerminal?
  private var resizeSignals: SignalPipe?
  private var previous: CellGrid?
  private var lastFrame: ScreenFrame?
  private var pairing: PairingOverlay?
  private var pairingClosed = false
  private var link = BrokerLink.up
  private var phoneCode: (url: String, code: QRCode?)?
  /// Where the phone remote's page server hands over the URL of its QR code (from any
  /// thread); the code is drawn in the top-right corner. See ``drawPhoneCode(_:url:in:content:)``.
  public let phoneCodeSlot = PhoneCodeSlot()

  /// The size used when the output is not a terminal and no size was given.
  public static let fallbackSize = (columns: 80, rows: 24)
  /// Below this size the layout is not drawn, only a message and the status line.
  public static let minimumSize = (columns: 40, rows: 12)

  /// Draws to `fd`; `colorMode` defaults to ``ColorMode/detect(environment:isTTY:)`` on the
  /// process environment, and `size` to the terminal's own size (followed on resize);
  /// `display` picks the palette and the size of titles.
  public init(
    output fd: Int32 = STDOUT_FILENO, colorMode: ColorMode? = nil,
    size: (columns: Int, rows: Int)? = nil, display: DisplayOptions = .standard
  ) {
    output = fd
    self.display = display
    self.colorMode =
      colorMode
      ?? ColorMode.detect(
        environment: ProcessInfo.processInfo.environment, isTTY: RawTerminal.isTerminal(fd))
    fixedSize = size
    self.size = size ?? RawTerminal.terminalSize(fd) ?? Self.fallbackSize
  }

  deinit { stop() }

  /// Enters raw mode, the alternate screen and hides the cursor (when the output is a
  /// terminal), and starts watching SIGWINCH.
  public func start() throws {
    if RawTerminal.isTerminal(output), terminal == nil {
      let raw = RawTerminal(fileDescriptor: output)
      try raw.enter([.alternateScreen, .hideCursor, .keepsSignalKeys])
      terminal = raw
    }
    if resizeSignals == nil {
      do {
        resizeSignals = try SignalPipe(signals: [SIGWINCH])
        if let signals = resizeSignals { phoneCodeSlot.attach { signals.poke() } }
      } catch {
        stop()
        throw error
      }
    }
    refreshSize()
    previous = nil
  }

  /// Composes `frame` and writes the cells that changed since the last frame.
  public func render(_ frame: ScreenFrame) throws {
    lastFrame = frame
    var grid = Self.compose(
      frame, columns: size.columns, rows: size.rows, colorMode: colorMode, display: display)
    if let change = phoneCodeSlot.takeChange() {
      // An encoder failure (a URL too long for any version) leaves the URL shown alone.
      phoneCode = change.map { ($0, try? QRCode($0)) }
    }
    if let phoneCode, size.columns >= Self.minimumSize.columns,
      size.rows >= Self.minimumSize.rows
    {
      let content = CellRect(x: 0, y: 1, width: size.columns, height: size.rows - 3)
      if let code = phoneCode.code {
        Self.drawPhoneCode(code, url: phoneCode.url, in: &grid, content: content)
      } else {
        grid.put(phoneCode.url, x: 0, y: content.y, style: .plain)
      }
    }
    if let pairing {
      Self.drawPairing(pairing, in: &grid, palette: .forContrast(display.contrast))
    } else if pairingClosed {
      Self.drawPairingClosed(in: &grid, palette: .forContrast(display.contrast))
    }
    if link == .lost { Self.drawLinkLost(in: &grid, columns: size.columns) }
    let bytes = grid.ansiDiff(from: previous, colorMode: colorMode)
    previous = grid
    guard !bytes.isEmpty else { return }
    do {
      try TerminalOutput.write(bytes, to: output)
    } catch {
      previous = nil  // What the terminal shows is unknown now: repaint fully next time.
      throw error
    }
  }

  /// Shows or hides the pairing PIN box over the layout (drawn with the next frame; at once
  /// if a frame is already on screen).
  public func showPairing(_ overlay: PairingOverlay?) throws {
    pairing = overlay
    if let lastFrame { try render(lastFrame) }
  }

  /// Shows or removes the notice that pairing is closed (at once over the last frame).
  public func showPairingClosed(_ closed: Bool) throws {
    pairingClosed = closed
    if let lastFrame { try render(lastFrame) }
  }

  /// Shows or removes the broker-gone banner (at once over the last frame).
  public func showLink(_ link: BrokerLink) throws {
    self.link = link
    if let lastFrame { try render(lastFrame) }
  }

  /// The banner on the top row while the broker does not answer; the layout below stays as
  /// last drawn.
  static func drawLinkLost(in grid: inout CellGrid, columns: Int) {
    let text =
      columns >= 72
      ? " ⚠ The broker is not answering: input cannot work. This is the last state shown. "
      : " ⚠ Broker not answering: state is stale "
    let line = text.padding(toLength: max(columns, 0), withPad: " ", startingAt: 0)
    _ = grid.put(String(line.prefix(columns)), x: 0, y: 0, style: Style(bold: true, inverse: true))
  }

  /// The read end of the SIGWINCH pipe, once started.
  public var wakeFileDescriptor: Int32? { resizeSignals?.fileDescriptor }

  /// After a resize: reads the new size and repaints the last frame fully. After a new phone
  /// code: draws it.
  public func handleWake() throws {
    guard let signals = resizeSignals else { return }
    let arrived = signals.drain()
    if arrived.contains(SIGWINCH) {
      refreshSize()
      previous = nil
    }
    if !arrived.isEmpty, let lastFrame { try render(lastFrame) }
  }

  /// Shows the cursor, leaves the alternate screen and restores the terminal's settings.
  /// Idempotent.
  public func stop() {
    phoneCodeSlot.attach(wake: nil)
    resizeSignals?.close()
    resizeSignals = nil
    terminal?.restore()
    terminal = nil
    previous = nil
  }

  private func refreshSize() {
    if fixedSize == nil, let current = RawTerminal.terminalSize(output) { size = current }
  }
}

// MARK: - Composition

extension TerminalRenderer {
  /// The frame as cells, for a terminal of `columns × rows`.
  ///
  /// Row 0 is a title bar, the last two rows are the status line (`▶ <title> (<id>) · <state>
  /// · seq <n> · <last event>`) and a key hint; between them the items are scaled from the
  /// layout's canvas (points, origin top-left) to cells, each a box with its title. The five
  /// display states stay distinct without colour:
  /// - focused: grown by a cell on each side (where the content area allows, and never over a
  ///   row heading's text), a double border (`╔═╗`; a thick `▛▀▜` ring in high contrast), a
  ///   bold title and a `▒` shadow on the right and bottom;
  /// - highlighted: the focused look in inverse video;
  /// - selected: a `♥` before the title, in a distinct colour (underlined in monochrome);
  /// - unavailable: a dotted `·` border in grey, title kept (dim in monochrome);
  /// - unfocused: a plain light border (`┌─┐`).
  /// Focused items with a `halo` or `highlight` focus effect are not lifted: see
  /// ``drawFocusEffect(_:_:_:_:in:content:look:)``.
  /// The focused item is drawn last so it lies over its neighbours. A trapping group that holds
  /// focus is a modal (see ``drawModal(_:frame:content:look:in:)``). `display` picks the palette
  /// (``TerminalPalette``) and whether titles wrap. A terminal smaller than ``minimumSize``
  /// gets a one-line message and the status line.
  public static func compose(
    _ frame: ScreenFrame, columns: Int, rows: Int, colorMode: ColorMode,
    display: DisplayOptions = .standard
  ) -> CellGrid {
    let palette = TerminalPalette.forContrast(display.contrast)
    let paper =
      palette.paintsBackground ? Cell(" ", style: Style(background: palette.background)) : .blank
    var grid = CellGrid(columns: columns, rows: rows, fill: paper)
    guard columns > 0, rows > 0 else { return grid }
    let status = statusLine(frame)
    if columns < minimumSize.columns || rows < minimumSize.rows {
      grid.put(
        "terminal too small: \(columns)×\(rows), need \(minimumSize.columns)×\(minimumSize.rows)",
        x: 0, y: 0, style: palette.warning)
      if rows > 1 { grid.put(status, x: 0, y: 1, style: palette.status) }
      return grid
    }

    grid.fill(CellRect(x: 0, y: 0, width: columns, height: 1), style: palette.titleBar)
    grid.put(
      " TenFoot · screen \(frame.screen) · epoch \(frame.epoch)", x: 0, y: 0,
      style: palette.titleBar)

    let content = CellRect(x: 0, y: 1, width: columns, height: rows - 3)
    let look = Look(
      palette: palette, colorMode: colorMode, wrapsTitles: display.textSize == .large)
    let modal = modalGroup(in: frame)
    drawItems(
      frame, content: content, look: look, skipping: modal.map(allItems(of:)) ?? [], in: &grid)
    if let modal { drawModal(modal, frame: frame, content: content, look: look, in: &grid) }
    drawPointer(frame, content: content, in: &grid)

    grid.fill(CellRect(x: 0, y: rows - 2, width: columns, height: 1), style: palette.status)
    grid.put(status, x: 0, y: rows - 2, style: palette.status)
    let hint =
      keyHints.first { TerminalText.width($0) <= columns } ?? keyHints[keyHints.count - 1]
    grid.put(hint, x: 0, y: rows - 1, style: palette.hint)
    return grid
  }

  /// Draws the layout's items (but those in `skipping`) into `content`: every card, then the
  /// headings (``placeHeadings(_:avoiding:in:look:)``), then the focused (lifted) card, whose
  /// lift leaves the headings' text whole.
  static func drawItems(
    _ frame: ScreenFrame, content: CellRect, look: Look, skipping: Set<String>,
    in grid: inout CellGrid
  ) {
    let canvas = frame.layout.canvas
    let scaleX = canvas.width > 0 ? Double(content.width) / canvas.width : 0
    let scaleY = canvas.height > 0 ? Double(content.height) / canvas.height : 0
    var lifted: [(Item, FocusDisplayState, CellRect, CellRect)] = []
    var headings: [Heading] = []
    var cards: [CellRect] = []
    let presented = frame.scroll.isEmpty ? [:] : frame.presentedFrames()
    let clips = frame.presentedClips()
    for var item in frame.drawnItems where !skipping.contains(item.id) {
      if let shown = presented[item.id] { item.frame = shown }
      // Drawn whole, then cut to what its scrolling groups show (one cell of slack for the
      // focused card's lift) and to the content area: a poster half out of view shows its
      // visible half, not a squashed box.
      var full = cellRect(item.frame, scaleX: scaleX, scaleY: scaleY, in: content)
      let clip =
        clips[item.id].map {
          cellRect($0, scaleX: scaleX, scaleY: scaleY, in: content).inset(by: -1)
            .intersection(content)
        } ?? content
      let state = displayState(of: item, in: frame)
      item.title = shownTitle(of: item, in: frame)
      guard !full.intersection(clip).isEmpty else { continue }
      // A box far larger than the screen (a hostile or odd layout) is cut near the view
      // first, so the scratch grid stays small; its title then centres on what shows.
      if full.width > 2 * grid.columns || full.height > 2 * grid.rows {
        full = full.intersection(clip.inset(by: -2))
      }
      if item.kind == .label {
        // A heading: bold text on the box's first line, no border, never a state.
        if full.y >= clip.y && full.y < clip.maxY {
          let room = max(0, min(full.maxX, clip.maxX) - full.x)
          headings.append(
            Heading(
              text: TerminalText.truncated(item.title, toWidth: room), x: full.x, y: full.y,
              clip: clip))
        }
        continue
      }
      cards.append(full.intersection(clip))
      if state == .focused || state == .highlighted {
        // Drawn by its resolved focus effect (lift, halo or highlight).
        item.focusEffect = frame.layout.focusEffects()[item.id]
        lifted.append((item, state, full, clip))
      } else {
        drawClipped(item, state, full, clip: clip, in: &grid, look: look)
      }
    }
    let placed = placeHeadings(headings, avoiding: cards, in: &grid, look: look)
    for (item, state, box, clip) in lifted {
      drawClipped(
        item, state, box, clip: clip, in: &grid, look: look, parallax: frame.parallax,
        keepClear: placed)
    }
  }

  /// A heading's text and the cell its box starts at, inside `clip`.
  struct Heading {
    var text: String
    var x: Int
    var y: Int
    var clip: CellRect
  }

  /// Draws the headings over the cards and returns where their text went. Scaled to a small
  /// terminal, a heading and the cards under it can round to the same row (at 80×24 a 48-point
  /// gap is under one cell): such a heading moves to the row above, else the row below, where
  /// that row is free of cards and other headings inside its clip; with neither free it keeps
  /// its own row up to the first card there (cut short), so no title ever moves a border.
  static func placeHeadings(
    _ headings: [Heading], avoiding cards: [CellRect], in grid: inout CellGrid, look: Look
  ) -> [CellRect] {
    var placed: [CellRect] = []
    for heading in headings {
      let width = TerminalText.width(heading.text)
      func free(_ row: Int) -> Bool {
        guard row >= heading.clip.y, row < heading.clip.maxY else { return false }
        let line = CellRect(x: heading.x, y: row, width: max(1, width), height: 1)
        let taken = { (rect: CellRect) in !rect.intersection(line).isEmpty }
        return !cards.contains(where: taken) && !placed.contains(where: taken)
      }
      if let row = [heading.y, heading.y - 1, heading.y + 1].first(where: free) {
        let end = grid.put(heading.text, x: heading.x, y: row, style: look.palette.heading)
        placed.append(CellRect(x: heading.x, y: row, width: end - heading.x, height: 1))
        continue
      }
      // No free row: the heading keeps the cells before the first card on its own row, cut
      // short, and never overwrites a card (a title must not move a border: the strings fuzz
      // target checks that).
      let line = CellRect(x: heading.x, y: heading.y, width: max(1, width), height: 1)
      let stop =
        [cards, placed].joined().filter { !$0.intersection(line).isEmpty }
        .map { max(heading.x, $0.x) }.min() ?? heading.x + width
      guard stop > heading.x else { continue }
      let text = TerminalText.truncated(heading.text, toWidth: stop - heading.x)
      let end = grid.put(text, x: heading.x, y: heading.y, style: look.palette.heading)
      placed.append(CellRect(x: heading.x, y: heading.y, width: end - heading.x, height: 1))
    }
    return placed
  }

  /// The title an item shows: a text field its value (its title is the placeholder), with a
  /// cursor when it has focus; any other item its title.
  static func shownTitle(of item: Item, in frame: ScreenFrame) -> String {
    guard item.kind == .textField else { return item.title }
    let value = frame.text[item.id] ?? item.value
    return (value.isEmpty ? item.title : value) + (item.id == frame.focused ? "▏" : "")
  }

  /// The key hint line, longest first; the longest that fits is shown.
  static let keyHints = [
    "tenfoot-remote drives this screen: arrows move · Tab = next group · Return selects · "
      + "Ctrl-C quits",
    "arrows move · Tab = next group · Return selects · Ctrl-C quits",
    "arrows move · Return selects · Ctrl-C quits",
    "Ctrl-C quits",
  ]

  /// `▶ <title> (<id>) · <state> · seq <n> · <last event>`, or `▶ (nothing focused) · …`.
  static func statusLine(_ frame: ScreenFrame) -> String {
    var parts: [String] = []
    if let focused = frame.focused {
      let title = frame.layout.items.first { $0.id == focused }?.title ?? ""
      let state = frame.states[focused] ?? .focused
      parts.append(title.isEmpty ? "▶ (\(focused))" : "▶ \(title) (\(focused))")
      parts.append(state.rawValue)
    } else {
      parts.append("▶ (nothing focused)")
    }
    if let parallax = frame.parallax, parallax.rotateX != 0 || parallax.rotateY != 0 {
      parts.append("tilt \(degrees(parallax.rotateX))/\(degrees(parallax.rotateY))")
    }
    if let parallax = frame.parallax, parallax.scale != Parallax.focusedScale {
      parts.append("scale \((parallax.scale * 100).rounded() / 100)")
    }
    parts.append("seq \(frame.seq)")
    if let event = frame.lastEvent, !event.isEmpty { parts.append(event) }
    return parts.joined(separator: " · ")
  }

  /// A rotation in whole degrees with a sign, like `+3°`.
  static func degrees(_ value: Double) -> String {
    let rounded = Int(value.rounded())
    return (rounded > 0 ? "+" : "") + "\(rounded)°"
  }

  /// The frame's state for `item`, falling back to what the layout alone implies.
  static func displayState(of item: Item, in frame: ScreenFrame) -> FocusDisplayState {
    if let state = frame.states[item.id] { return state }
    if !item.available { return .unavailable }
    return frame.focused == item.id ? .focused : .unfocused
  }

  /// `rect` (canvas points) scaled to cells of `content`, whose origin is the canvas's: edges
  /// rounded outwards, so a small item still covers at least one cell. Not clipped: the
  /// caller cuts it to what shows.
  static func cellRect(_ rect: Rect, scaleX: Double, scaleY: Double, in content: CellRect)
    -> CellRect
  {
    guard rect.width.isFinite, rect.height.isFinite, rect.x.isFinite, rect.y.isFinite else {
      return CellRect(x: 0, y: 0, width: 0, height: 0)
    }
    func clamp(_ value: Double) -> Int { Int(max(-1e6, min(1e6, value))) }
    let left = clamp((rect.minX * scaleX).rounded(.down))
    let top = clamp((rect.minY * scaleY).rounded(.down))
    let right = max(left + 1, clamp((rect.maxX * scaleX).rounded(.up)))
    let bottom = max(top + 1, clamp((rect.maxY * scaleY).rounded(.up)))
    return CellRect(
      x: content.x + left, y: content.y + top, width: right - left, height: bottom - top)
  }
}
