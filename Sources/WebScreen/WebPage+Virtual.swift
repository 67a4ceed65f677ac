/// The page's drawing of virtual groups: only the cells in view, scrolled with the focus.
///
/// The layout message declares each virtual group once (``WebMessages/VirtualJSON``); every
/// frame names the indices in view and the content's shift (``WebMessages/WindowJSON``, made
/// by ``ScreenCore/ScreenFrame/virtualWindows()`` like the other renderers' windows). The page
/// makes a card for an index when it comes into view (at the frame the engine gives it in the
/// window, so per-index sizes need no arithmetic here; titled and named like a listed button)
/// and keeps it in `nodes`, so `draw()` gives it the five states, the parallax and the focus ring like any item. The content an app
/// supplied for a cell in view comes with the frames (the window's `content`): a card is made
/// with it, and redrawn in place when it comes or changes (title, subtitle, body, badge,
/// picture, accent, label; every text through `textContent`); a cell without any keeps the
/// placeholder title. An unavailable cell's state comes in the frame's `states`. A card that leaves the
/// view stays while it slides out (the transitions' length), then goes: the DOM holds about a
/// screenful of cards whatever the count.
///
/// A card is placed where it was shown when it was made and moved by a translation of the
/// scrolling since (not at its content position minus the whole scroll): a grid of a billion
/// items reaches coordinates past what CSS lengths hold, the distance scrolled while a card is
/// in view does not.
extension WebPage {
  /// `virtualBuild()` (after a layout is built), `virtualSync()` and `virtualShift(n)` (for
  /// `draw()`), `holds(group, id)` (whether an item is inside a group, virtual ones too).
  static let virtualScript = """
    const VIRTUAL_LINGER = 320;  // ms a card that left the view stays: the transitions' 0.28 s.
    const virtualGroups = new Map();  // virtual group id → its layout group
    const groupsByID = new Map();

    function virtualBuild() {
      virtualGroups.clear();
      groupsByID.clear();
      for (const g of layout.groups) {
        groupsByID.set(g.id, g);
        if (g.virtual) virtualGroups.set(g.id, g);
      }
    }

    // Makes the cards that came into view and retires those that left it.
    function virtualSync() {
      if (virtualGroups.size === 0) return;
      const windows = frame.virtual || {};
      const inView = new Set();
      for (const [groupID, view] of Object.entries(windows)) {
        const group = virtualGroups.get(groupID);
        if (!group) continue;
        const content = view.content || {};
        view.indices.forEach((index, at) => {
          const id = groupID + "#" + index;
          inView.add(id);
          const supplied = content[index] || null;
          const known = nodes.get(id);
          if (!known) { virtualCard(group, index, view.frames[at], view.shift, supplied); return; }
          if (known.leaving) { clearTimeout(known.leaving); known.leaving = 0; }
          virtualRefresh(known, group, index, supplied);
        });
      }
      const linger = display.reducedMotion() ? 0 : VIRTUAL_LINGER;
      for (const [id, n] of nodes) {
        if (!n.cell || inView.has(id) || n.leaving) continue;
        const drop = () => { n.el.remove(); if (nodes.get(id) === n) nodes.delete(id); };
        if (linger === 0) drop(); else n.leaving = setTimeout(drop, linger);
      }
    }

    // Item `index` of a virtual group as a card at its content frame `f` (the engine's), where
    // it is shown now (`shift` scrolled), with the content its app supplied (null: none yet).
    function virtualCard(group, index, f, shift, supplied) {
      const v = group.virtual;
      const id = group.id + "#" + index;
      const item = { id, kind: "button", toggles: false, layers: [],
        frame: [f[0] - shift[0], f[1] - shift[1], f[2], f[3]], effect: v.effect,
        pointerEffect: v.pointerEffect };
      virtualFill(item, v, index, supplied);
      const n = card(item);
      n.cell = { group: group.id, base: shift.slice(), key: virtualKey(supplied) };
      const el = n.el;
      el.setAttribute("role", "option");
      el.setAttribute("aria-label", item.label);
      el.setAttribute("aria-posinset", String(index + 1));
      el.setAttribute("aria-setsize", String(v.count));
      el.tabIndex = -1;
      virtualHideParts(el);
      (document.getElementById("group-" + group.id) || stage).appendChild(el);
      nodes.set(id, n);
    }

    // The card's title and content: what the app supplied, else the placeholder title.
    function virtualFill(item, v, index, supplied) {
      const s = supplied || {};
      item.title = s.title != null ? s.title : v.titlePrefix + (index + 1);
      item.label = item.title;
      item.subtitle = s.subtitle; item.body = s.body; item.badge = s.badge;
      item.image = s.image; item.accent = s.accent;
    }

    function virtualKey(supplied) { return supplied ? JSON.stringify(supplied) : ""; }

    function virtualHideParts(el) {
      for (const part of el.querySelectorAll(".heart, .specular, .face, .art, .badge, .accent-bar")) {
        part.setAttribute("aria-hidden", "true");
      }
    }

    // Redraws a card in view whose supplied content came or changed since it was drawn.
    function virtualRefresh(n, group, index, supplied) {
      const key = virtualKey(supplied);
      if (n.cell.key === key) return;
      n.cell.key = key;
      virtualFill(n.item, group.virtual, index, supplied);
      contentRefresh(n);
      n.el.setAttribute("aria-label", n.item.label);
      virtualHideParts(n.el);
    }

    // How far a card has scrolled since it was made ([dx, dy]; null: not at all).
    function virtualShift(n) {
      const view = (frame.virtual || {})[n.cell.group];
      if (!view) return null;
      const dx = n.cell.base[0] - view.shift[0], dy = n.cell.base[1] - view.shift[1];
      return dx || dy ? [dx, dy] : null;
    }

    // Whether item `id` is inside group `g`: listed there, or a virtual item of `g` or of a
    // group inside it.
    function holds(g, id) {
      if (!id) return false;
      if (g.allItems.includes(id)) return true;
      const hash = id.lastIndexOf("#");
      if (hash < 0 || !virtualGroups.has(id.slice(0, hash))) return false;
      for (let at = groupsByID.get(id.slice(0, hash)); at; at = groupsByID.get(at.parent)) {
        if (at.id === g.id) return true;
      }
      return false;
    }
    """
}
