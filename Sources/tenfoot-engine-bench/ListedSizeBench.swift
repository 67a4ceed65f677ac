import FocusEngine

/// A streaming home listed item by item: `rows` rails of `columns` posters, each rail a group
/// that scrolls horizontally inside a page that scrolls vertically (one scroll domain per
/// rail), in `search`'s model.
func home(rows: Int, columns: Int, search: SearchModel = .tvos) -> Layout {
  var items: [Item] = []
  items.reserveCapacity(rows * columns)
  var rails: [Group] = []
  for row in 0..<rows {
    var ids: [String] = []
    ids.reserveCapacity(columns)
    for column in 0..<columns {
      let id = "r\(row)c\(column)"
      items.append(
        Item(
          id: id,
          frame: Rect(
            x: 60 + Double(column) * 340, y: 100 + Double(row) * 260, width: 300, height: 220)))
      ids.append(id)
    }
    rails.append(
      Group(
        id: "rail\(row)", items: ids, scroll: .horizontal,
        viewport: Rect(x: 0, y: 100 + Double(row) * 260, width: 1920, height: 240)))
  }
  let page = Group(
    id: "page", groups: rails, scroll: .vertical,
    viewport: Rect(x: 0, y: 80, width: 1920, height: 1000))
  return Layout(items: items, groups: [page], search: search)
}

/// A move's cost in listed layouts of 200, 10⁴ and 10⁵ items, in three shapes: a flat poster
/// grid, a home of scrolling rails, and that home in the Android model. A move should cost
/// what it costs at 200 items, whatever the count.
func listedSizeReport(moves: Int) throws {
  print("\nListed layouts by size (a move should not grow with the item count)")
  let shapes: [(count: Int, rows: Int, columns: Int)] = [
    (200, 10, 20), (10_000, 50, 200), (100_000, 100, 1_000),
  ]
  var baseline: [String: Double] = [:]
  for shape in shapes {
    let layouts: [(String, Layout, Int)] = [
      ("posters", posters(rows: shape.rows, columns: shape.columns), moves),
      ("rails", home(rows: shape.rows, columns: shape.columns), moves),
      (
        "rails, Android", home(rows: shape.rows, columns: shape.columns, search: .android),
        moves / 10
      ),
    ]
    for (name, layout, count) in layouts {
      let (moved, _) = try timeMoves(layout, moves: count)
      let label = "move, \(name), \(shape.count.formatted()) listed"
      row(label, moved)
      if let first = baseline[name] {
        print("  ratio to 200 (median): \((moved.median / first * 100).rounded() / 100)×")
      } else {
        baseline[name] = moved.median
      }
    }
  }
}
