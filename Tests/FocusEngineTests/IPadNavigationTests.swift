import Foundation
import Testing

@testable import FocusEngine

/// `navigation: ipados`: arrows stay among the focused item's own focus group; Tab moves
/// between groups; focus effects default by navigation model.
@Suite("iPadOS navigation and focus effects")
struct IPadNavigationTests {
  /// Two rows of three, each its own group: "top" (t0 t1 t2) above "bottom" (b0 b1 b2).
  func rows(
    layout navigation: NavigationModel = .ipados, top: NavigationModel? = nil,
    bottom: NavigationModel? = nil, search: SearchModel = .tvos
  ) -> Layout {
    var items: [Item] = []
    for column in 0..<3 {
      items.append(item("t\(column)", Double(column) * 200, 0, 150, 100))
      items.append(item("b\(column)", Double(column) * 200, 200, 150, 100))
    }
    return Layout(
      items: items,
      groups: [
        Group(id: "top", items: ["t0", "t1", "t2"], navigation: top),
        Group(id: "bottom", items: ["b0", "b1", "b2"], navigation: bottom),
      ], initialFocus: "t0", search: search, navigation: navigation)
  }

  @Test("arrows move inside the group and bump at its edge", arguments: SearchModel.allCases)
  func confinedToGroup(search: SearchModel) throws {
    var state = try FocusState(layout: rows(search: search))
    #expect(reduce(&state, .move(.right)) == moved("t0", "t1", .right))
    // Below lies the other group: tvOS would go there, iPadOS bumps and stays.
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    #expect(state.focused == "t1")
    #expect(reduce(&state, .move(.right)) == moved("t1", "t2", .right))
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    #expect(state.focused == "t2")
  }

  @Test("Tab still moves between groups, to the primary item")
  func tabBetweenGroups() throws {
    var state = try FocusState(layout: rows())
    let effects = reduce(&state, .tab(.next))
    #expect(
      effects == [
        .focusChanged(FocusUpdateContext(previous: "t0", next: "b0", heading: .next))
      ])
    #expect(reduce(&state, .move(.up)) == [.movementFailed(.up)])
    #expect(reduce(&state, .move(.right)) == moved("b0", "b1", .right))
    // Back to "top": its primary item is the one focused there last.
    _ = reduce(&state, .tab(.previous))
    #expect(state.focused == "t0")
  }

  @Test("tvOS navigation reaches the other group (the default)")
  func tvosReachesEverything() throws {
    var state = try FocusState(layout: rows(layout: .tvos))
    #expect(reduce(&state, .move(.down)) == moved("t0", "b0", .down))
  }

  @Test("a group's navigation overrides the layout's, for moves that start inside it")
  func perGroup() throws {
    var state = try FocusState(layout: rows(layout: .tvos, top: .ipados))
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    _ = reduce(&state, .requestFocus(.item("b1")))
    // From the tvOS group, arrows may enter the iPadOS one.
    #expect(reduce(&state, .move(.up)) == moved("b1", "t1", .up))
    #expect(state.navigation(of: "t1") == .ipados)
    #expect(state.navigation(of: "b1") == .tvos)
  }

  /// "outer" holds o0 and o1 itself and a nested group "inner" (i0, i1) to their right;
  /// "side" is another top-level group below.
  func nested(outer: NavigationModel? = .ipados, inner: NavigationModel? = nil) -> Layout {
    Layout(
      items: [
        item("o0", 0, 0, 100, 100), item("o1", 150, 0, 100, 100),
        item("i0", 300, 0, 100, 100), item("i1", 450, 0, 100, 100),
        item("s0", 0, 300, 100, 100),
      ],
      groups: [
        Group(
          id: "outer", items: ["o0", "o1"],
          groups: [Group(id: "inner", items: ["i0", "i1"], navigation: inner)],
          navigation: outer),
        Group(id: "side", items: ["s0"]),
      ], initialFocus: "o0")
  }

  @Test("nested groups: a parent's own items and a nested group's items do not mix")
  func nestedGroups() throws {
    var state = try FocusState(layout: nested())
    #expect(reduce(&state, .move(.right)) == moved("o0", "o1", .right))
    // i0 lies to the right, but in the nested group: the outer group's edge.
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    _ = reduce(&state, .tab(.next))
    #expect(state.focused == "i0")
    #expect(state.navigation(of: "i0") == .ipados)  // Inherited from "outer".
    // o1 lies to the left, in the parent: the nested group's edge.
    #expect(reduce(&state, .move(.left)) == [.movementFailed(.left)])
    #expect(reduce(&state, .move(.right)) == moved("i0", "i1", .right))
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    _ = reduce(&state, .tab(.next))
    #expect(state.focused == "s0")
  }

  @Test("a nested group may turn tvOS navigation back on for its own moves")
  func nestedOverride() throws {
    var state = try FocusState(layout: nested(inner: .tvos))
    _ = reduce(&state, .requestFocus(.item("i0")))
    #expect(reduce(&state, .move(.left)) == moved("i0", "o1", .left))
    // Now in "outer" (iPadOS): back right is the edge again.
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
  }

  @Test("ungrouped items are one group: arrows stay among them")
  func rootItems() throws {
    let layout = Layout(
      items: [
        item("a", 0, 0, 100, 100), item("b", 0, 200, 100, 100), item("g0", 200, 0, 100, 100),
      ],
      groups: [Group(id: "g", items: ["g0"])], initialFocus: "a", navigation: .ipados)
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == [.movementFailed(.right)])
    #expect(reduce(&state, .move(.down)) == moved("a", "b", .down))
  }

  @Test("guides count only inside the group and only towards its own items")
  func guides() throws {
    var layout = rows()
    // A guide right of t2 leading back to t0 (a wrap), and one below t0 leading to b0.
    layout.guides = [
      FocusGuide(
        id: "wrap", frame: Rect(x: 600, y: 0, width: 50, height: 100), destinations: ["t0"],
        group: "top"),
      FocusGuide(
        id: "down", frame: Rect(x: 0, y: 120, width: 150, height: 40), destinations: ["b0"],
        group: "top"),
    ]
    layout.initialFocus = "t2"
    var state = try FocusState(layout: layout)
    #expect(reduce(&state, .move(.right)) == moved("t2", "t0", .right))
    #expect(reduce(&state, .move(.down)) == [.movementFailed(.down)])
    #expect(state.focused == "t0")
  }

  @Test("focus effects: lift in tvOS, halo in iPadOS, unless an item names its own")
  func effectDefaults() throws {
    var layout = rows(layout: .tvos, top: .ipados)
    layout.items[0].focusEffect = .highlight  // t0
    layout.items[0].cornerRadius = 12
    let state = try FocusState(layout: layout)
    #expect(state.focusEffect(of: "t0") == .highlight)
    #expect(state.focusEffect(of: "t1") == .halo)
    #expect(state.focusEffect(of: "b0") == .lift)
    #expect(state.focusEffect(of: "nope") == nil)
    let effects = layout.focusEffects()
    #expect(effects["t0"] == .highlight && effects["t1"] == .halo && effects["b0"] == .lift)
    #expect(layout.navigationModels()["t2"] == .ipados)
  }

  @Test("explain and the group tree show the navigation model and the focus effect")
  func explain() throws {
    var layout = rows(layout: .tvos, top: .ipados)
    layout.items[0].focusEffect = .highlight  // t0
    layout.items[0].cornerRadius = 12.5
    let state = try FocusState(layout: layout)
    #expect(
      state.explain("t0").lines.contains(
        #"navigation ipados (arrows stay in group "top") · search tvos · focus effect highlight, corner radius 12.5"#
      ), "\(state.explain("t0").lines)")
    #expect(
      state.explain("b0").lines.contains(
        "navigation tvos · search tvos · focus effect lift (default)"))
    // From t0, arrows cannot reach b0: explain says so rather than giving a path.
    #expect(state.explain("b0").lines.contains { $0.hasPrefix("not reachable from t0") })
    #expect(state.groupTree().first?.contains("navigation ipados") == true)
  }

  @Test("the JSON format reads navigation, focusEffect and cornerRadius")
  func decodes() throws {
    let json = """
      {"navigation": "ipados",
       "items": [{"id": "a", "frame": [0, 0, 10, 10], "focusEffect": "halo", "cornerRadius": 8}],
       "groups": [{"id": "g", "items": ["a"], "navigation": "tvos"}]}
      """
    let layout = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    #expect(layout.navigation == .ipados)
    #expect(layout.items[0].focusEffect == .halo && layout.items[0].cornerRadius == 8)
    #expect(layout.groups[0].navigation == .tvos)
  }

  @Test(
    "unknown navigation and focus effect values are refused naming the field and the values",
    arguments: [
      (#"{"items": [], "navigation": "webos"}"#, "navigation", "tvos, ipados"),
      (
        #"{"items": [{"id": "a", "frame": [0,0,1,1], "focusEffect": "glow"}]}"#, "focusEffect",
        "halo, highlight, lift"
      ),
      (
        #"{"items": [], "groups": [{"id": "g", "navigation": "webos"}]}"#, "navigation",
        "tvos, ipados"
      ),
    ])
  func unknownValues(json: String, field: String, allowed: String) {
    do {
      _ = try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
      Issue.record("decoded \(json)")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.last?.stringValue == field)
      #expect(context.debugDescription.contains("allowed: \(allowed)"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test("a negative or infinite corner radius is refused", arguments: [-1, Double.infinity])
  func badRadius(radius: Double) {
    let layout = Layout(
      items: [Item(id: "a", frame: Rect(x: 0, y: 0, width: 1, height: 1), cornerRadius: radius)]
    )
    #expect(throws: LayoutError.self) { try layout.validate() }
    do {
      try layout.validate()
    } catch {
      #expect(error.path == "items[0].cornerRadius")
    }
  }
}
