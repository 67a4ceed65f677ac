extension WebPage {
  /// The live region screen readers hear announcements from (visually hidden).
  static let announcer = """
    <div id="announcer" class="sr-only" role="status" aria-live="polite" aria-atomic="true"></div>
    """

  /// Styles of the accessibility tree: the live region is hidden from sight, group wrappers
  /// take no box of their own (items keep their absolute positions), and the browser's own
  /// focus outline gives way to the engine's focus ring.
  static let accessibilityCSS = """
    .sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
      overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .a11y-group { display: contents; }
    .item:focus, .item:focus-visible { outline: none; }
    """

  /// The accessibility tree, built beside the drawing: `a11yBuild()` after the page builds a
  /// layout, `a11yDraw()` after it draws a frame.
  ///
  /// - Every group becomes a wrapper element (`display: contents`, so nothing moves) holding
  ///   its items and nested groups in reading order: a trapping group is a `dialog` with
  ///   `aria-modal`, a group of buttons a `listbox` (its items `option`s with `aria-selected`,
  ///   `aria-disabled`, `aria-posinset`/`aria-setsize` counting focusable items only), others a
  ///   plain `group`; each is labelled with the group's spoken name.
  /// - Headings (`label` items) are `heading`s, text fields `textbox`es; every item is named
  ///   by its accessibility label (else its title), never by its decorations.
  /// - The engine's focused item gets real DOM focus, so the browser's accessibility tree
  ///   reports it focused; the frame's announcement goes into the `aria-live` region.
  static let accessibilityScript = """
    "use strict";
    const announcerRegion = document.getElementById("announcer");
    const a11ySelected = new Set();
    let a11yItems = new Map();

    function a11yBuild() {
      a11yItems = new Map(layout.items.map((item) => [item.id, item]));
      a11ySelected.clear();
      const placed = new Set();
      const top = [];
      const frameOf = (el) => [parseFloat(el.style.top) || 0, parseFloat(el.style.left) || 0];
      const sorted = (els) => els.map((el) => [frameOf(el), el])
        .sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1]).map((p) => p[1]);
      function element(id) {
        const n = nodes.get(id);
        return n ? n.el : labels.get(id);
      }
      function wrap(group) {
        const box = document.createElement("div");
        box.className = "a11y-group";
        box.id = "group-" + group.id;
        const own = group.items.map((id) => a11yItems.get(id)).filter((i) => i && i.kind !== "label");
        const buttons = own.length > 0 && own.every((i) => i.kind !== "textField");
        box.setAttribute("role", group.trapsFocus ? "dialog" : buttons || group.virtual ? "listbox" : "group");
        if (group.trapsFocus) box.setAttribute("aria-modal", "true");
        if (group.label) box.setAttribute("aria-label", group.label);
        const children = [];
        for (const id of group.items) {
          const el = element(id);
          if (!el) continue;
          placed.add(id);
          const item = a11yItems.get(id);
          if (item.kind !== "label") el.setAttribute("role", group.trapsFocus ? "button" : buttons ? "option" : "button");
          children.push(el);
        }
        for (const child of group.children || []) children.push(wrap(child));
        // Wrappers have no box: order them by their first child's place.
        const place = (el) => el.classList.contains("a11y-group")
          ? (el.firstElementChild ? frameOf(el.firstElementChild) : [1e9, 1e9]) : frameOf(el);
        children.sort((a, b) => place(a)[0] - place(b)[0] || place(a)[1] - place(b)[1]);
        box.append(...children);
        return box;
      }
      const roots = layout.groups.filter((g) => !g.parent);
      const byID = new Map(layout.groups.map((g) => [g.id, Object.assign(g, { children: [] })]));
      for (const g of layout.groups) if (g.parent && byID.has(g.parent)) byID.get(g.parent).children.push(g);
      for (const g of roots) top.push(wrap(g));
      for (const item of layout.items) {
        const el = element(item.id);
        if (!el) continue;
        if (item.kind === "label") { el.setAttribute("role", "heading"); el.setAttribute("aria-level", "2"); }
        else if (item.kind === "textField") el.setAttribute("role", "textbox");
        else if (!placed.has(item.id)) { el.setAttribute("role", "button"); top.push(el); }
        if (item.kind !== "label") {
          el.setAttribute("aria-label", item.label);
          el.tabIndex = -1;
          if (item.hint) el.setAttribute("aria-description", item.hint);
        }
        for (const part of el.querySelectorAll(".heart, .badge, .art, .accent-bar, .specular, .layer, .face")) part.setAttribute("aria-hidden", "true");
      }
      for (const el of sorted(top.filter((el) => !el.classList.contains("a11y-group")))) stage.appendChild(el);
      for (const el of top.filter((el) => el.classList.contains("a11y-group"))) stage.appendChild(el);
    }

    function a11yDraw() {
      for (const [id, n] of nodes) {
        const state = frame.states[id] || "unfocused";
        if (state === "selected") a11ySelected.add(id);
        else if (state === "unfocused" || state === "unavailable") a11ySelected.delete(id);
        const role = n.el.getAttribute("role");
        if (role === "option") n.el.setAttribute("aria-selected", String(a11ySelected.has(id)));
        else if (role === "button" && n.item.toggles) n.el.setAttribute("aria-pressed", String(a11ySelected.has(id)));
        if (state === "unavailable") n.el.setAttribute("aria-disabled", "true");
        else n.el.removeAttribute("aria-disabled");
      }
      for (const name of frame.events || []) {
        const [what, id] = [name.slice(0, name.indexOf(":")), name.slice(name.indexOf(":") + 1)];
        if (what === "selected") a11ySelected.add(id);
        if (what === "deselected") a11ySelected.delete(id);
      }
      for (const group of layout.groups) {
        const focusable = group.items.filter((id) => nodes.has(id) && frame.states[id] !== "unavailable");
        focusable.forEach((id, i) => {
          const el = nodes.get(id).el;
          el.setAttribute("aria-posinset", String(i + 1));
          el.setAttribute("aria-setsize", String(focusable.length));
        });
      }
      const focused = frame.focused ? nodes.get(frame.focused) : null;
      if (focused && document.activeElement !== focused.el) focused.el.focus({ preventScroll: true });
      if (frame.announcement) announcerRegion.textContent = frame.announcement.text;
    }
    """
}
