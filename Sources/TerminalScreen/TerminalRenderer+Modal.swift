import FocusEngine
import ScreenCore
import TerminalUI

// MARK: - A trapping group as a modal

extension TerminalRenderer {
  /// Where a modal's items go: the panel (its border included) and the mapping from canvas
  /// points to cells inside it.
  struct ModalPlacement: Equatable {
    /// The panel, border included.
    var panel: CellRect
    /// The items' area inside the panel's padding.
    var inner: CellRect
    /// The top-left corner of the items' bounding box, canvas points.
    var origin: Point
    /// Cells per point, horizontally and vertically.
    var scaleX: Double
    var scaleY: Double

    /// `rect` (canvas points) as cells of the panel.
    func cells(for rect: Rect) -> CellRect {
      TerminalRenderer.cellRect(
        Rect(x: rect.x - origin.x, y: rect.y - origin.y, width: rect.width, height: rect.height),
        scaleX: scaleX, scaleY: scaleY, in: inner)
    }
  }

  /// Cells between a modal's items and its border on each side: room for the focused card's
  /// lift (one cell) and shadow (one more), and a column of air.
  static let modalPadding = (columns: 3, rows: 2)
  /// The most a modal's items are enlarged against the canvas's scale, across and down.
  static let modalMaxZoom = (columns: 1.5, rows: 2.0)

  /// The panel a modal takes on a `columns × rows` terminal (border included), or nil when no
  /// trapping group holds focus in `frame`.
  public static func modalPanel(for frame: ScreenFrame, columns: Int, rows: Int) -> CellRect? {
    guard columns >= minimumSize.columns, rows >= minimumSize.rows,
      let group = modalGroup(in: frame)
    else { return nil }
    let members = allItems(of: group)
    let presented = frame.scroll.isEmpty ? [:] : frame.presentedFrames()
    let frames = frame.layout.items.filter { members.contains($0.id) && $0.kind != .label }.map {
      presented[$0.id] ?? $0.frame
    }
    let content = CellRect(x: 0, y: 1, width: columns, height: rows - 3)
    return modalPlacement(frames, canvas: frame.layout.canvas, content: content)?.panel
  }

  /// The innermost group that traps focus and holds it, drawn as a modal; nil when focus is
  /// outside every trapping group.
  static func modalGroup(in frame: ScreenFrame) -> Group? {
    guard let focused = frame.focused else { return nil }
    var found: Group?
    func walk(_ groups: [Group]) {
      for group in groups {
        if group.trapsFocus && allItems(of: group).contains(focused) { found = group }
        walk(group.groups)
      }
    }
    walk(frame.layout.groups)
    return found
  }

  /// The ids of a group's items and of its nested groups' items.
  static func allItems(of group: Group) -> Set<String> {
    var ids = Set(group.items)
    for child in group.groups { ids.formUnion(allItems(of: child)) }
    return ids
  }

  /// Centres the modal's items (`frames`, canvas points) in `content`, enlarged up to
  /// ``modalMaxZoom`` times the canvas's scale (1.5 across, 2 down) while the panel fits (shrunk on a terminal too
  /// small for it): a dialog stays readable at 80×24, where the canvas's own scale would cut
  /// its titles. Nil when there is nothing to place or no room.
  static func modalPlacement(_ frames: [Rect], canvas: Size, content: CellRect)
    -> ModalPlacement?
  {
    guard let first = frames.first, canvas.width > 0, canvas.height > 0 else { return nil }
    var left = first.minX
    var top = first.minY
    var right = first.maxX
    var bottom = first.maxY
    for frame in frames.dropFirst() {
      left = min(left, frame.minX)
      top = min(top, frame.minY)
      right = max(right, frame.maxX)
      bottom = max(bottom, frame.maxY)
    }
    let baseX = Double(content.width) / canvas.width
    let baseY = Double(content.height) / canvas.height
    let roomX = Double(content.width - 2 * (modalPadding.columns + 1))
    let roomY = Double(content.height - 2 * (modalPadding.rows + 1))
    guard roomX >= 4, roomY >= 1, right > left, bottom > top,
      left.isFinite, top.isFinite, right.isFinite, bottom.isFinite
    else { return nil }
    // Each axis on its own (cells are not square): taller rows leave room between a row of
    // items and the next for the focused card's lift and shadow.
    let scaleX = baseX * min(modalMaxZoom.columns, roomX / ((right - left) * baseX))
    let scaleY = baseY * min(modalMaxZoom.rows, roomY / ((bottom - top) * baseY))
    let width = min(Int(roomX), Int(((right - left) * scaleX).rounded(.up)))
    let height = min(Int(roomY), Int(((bottom - top) * scaleY).rounded(.up)))
    let inner = CellRect(
      x: content.x + (content.width - width) / 2, y: content.y + (content.height - height) / 2,
      width: width, height: height)
    let panel = CellRect(
      x: inner.x - modalPadding.columns - 1, y: inner.y - modalPadding.rows - 1,
      width: width + 2 * (modalPadding.columns + 1), height: height + 2 * (modalPadding.rows + 1))
    return ModalPlacement(
      panel: panel, inner: inner, origin: Point(x: left, y: top), scaleX: scaleX,
      scaleY: scaleY)
  }

  /// Draws `group` as a modal over what `content` already shows: everything under and around
  /// it dimmed (or, in high contrast, cleared), then a bordered panel cleared to its own
  /// background, then the group's items centred in it, titles wrapped to their boxes, the
  /// focused one last. Nothing of the screen beneath shows inside the panel.
  static func drawModal(
    _ group: Group, frame: ScreenFrame, content: CellRect, look: Look, in grid: inout CellGrid
  ) {
    let members = allItems(of: group)
    let presented = frame.scroll.isEmpty ? [:] : frame.presentedFrames()
    var items = frame.layout.items.filter { members.contains($0.id) && $0.kind != .label }
    for index in items.indices {
      if let shown = presented[items[index].id] { items[index].frame = shown }
      items[index].title = shownTitle(of: items[index], in: frame)
    }
    guard
      let placement = modalPlacement(
        items.map(\.frame), canvas: frame.layout.canvas, content: content)
    else { return }
    let palette = look.palette
    if let behind = palette.behindModal {
      grid.restyle(content) { $0 = behind }
    } else {
      grid.fill(content, style: Style(background: palette.background))
    }
    grid.fill(placement.panel, style: palette.dialog)
    drawBox(
      placement.panel, border: .light, borderStyle: palette.dialogBorder, title: "",
      titleStyle: palette.dialog, in: &grid)
    let interior = placement.panel.inset(by: 1)
    var dialogLook = look
    dialogLook.wrapsTitles = true
    var lifted: [(Item, FocusDisplayState, CellRect)] = []
    for item in items {
      let state = displayState(of: item, in: frame)
      let box = placement.cells(for: item.frame)
      if state == .focused || state == .highlighted {
        lifted.append((item, state, box))
      } else {
        drawClipped(item, state, box, clip: interior, in: &grid, look: dialogLook)
      }
    }
    for (item, state, box) in lifted {
      drawClipped(
        item, state, box, clip: interior, in: &grid, look: dialogLook, parallax: frame.parallax)
    }
    // Borders and titles that set no background show the panel's, not the terminal's.
    grid.restyle(placement.panel) {
      if $0.background == nil { $0.background = palette.dialog.background }
    }
  }
}
