/// `tenfoot.js`, the ES module that makes a developer's own page a TenFoot screen
/// (`--app DIR` serves it at `/tenfoot.js`; docs/apps.md, "Your own web page", documents its
/// attributes and events). It is kept here, in the binary: no build step, no CDN, no npm.
enum TenFootScript {
  /// The module's source.
  static let source = #"""
    // tenfoot.js: makes this page a TenFoot screen (docs/apps.md, "Your own web page").
    // Served by `tenfoot-screen --renderer web --app DIR` at /tenfoot.js; no dependencies.
    //
    // Elements marked data-focus-id are measured into a layout (CSS pixels, document coordinates)
    // that the screen registers with the broker; focus comes back as data-focus-state, parallax as
    // --tenfoot-* custom properties, announcements into a live region, and events as tenfoot:*
    // CustomEvents. A listener's DOM changes to tenfoot:activated, tenfoot:back or tenfoot:home
    // are the app's reaction to that frame: the remote's next press waits for them.

    const AWAITED = new Set(["activated", "back", "home"]);
    const WATCHED = ["data-focus-id", "data-focus-group", "data-focus-guide", "data-focus-title",
      "data-focus-unavailable", "data-focus-priority", "data-focus-kind", "data-focus-toggle",
      "data-focus-selected", "data-focus-trap", "data-focus-remember", "data-focus-preferred",
      "data-focus-scroll", "data-focus-destinations", "data-focus-disabled", "data-focus-initial",
      "data-focus-effect", "data-focus-hint", "data-focus-selection-follows", "data-focus-search",
      "data-focus-navigation", "data-focus-verbosity", "aria-label", "disabled", "aria-disabled", "hidden",
      "class", "data-focus-subtitle", "data-focus-body", "data-focus-badge", "data-focus-image",
      "data-focus-accent", "data-focus-content", "value"];
    const CONTENT = ["subtitle", "body", "badge", "image", "accent"];
    // A page message may be at most this many bytes (the screen closes a larger one with 1009).
    const LIMIT = 8 * 1024 * 1024;
    const EDITING = new Set(["Backspace", " ", "Home", "ArrowLeft", "ArrowRight"]);
    const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
      Enter: "select", Escape: "menu", Backspace: "menu", Home: "home", " ": "play-pause" };

    const key = new URLSearchParams(location.search).get("key") || "";
    let socket = null;
    let sent = "";            // the layout JSON last sent
    let elements = new Map(); // item id → element, from the last measure
    let groupElements = new Map();
    let shown = new Set();    // elements carrying data-focus-state
    let lifted = null;        // the element carrying the parallax properties
    let lastSeq = -1;
    let fresh = true;         // the next frame is the first after (re)connecting: no events replayed
    let scheduled = false;
    let reacting = null;      // while tenfoot:* listeners run: { focus }
    let live = null;
    let inactive = false;    // another page took over as the app: this one stays quiet
    const observedSizes = new WeakSet();
    // Text fields: element → { known, declared }. `known` is the text the session last had as
    // far as this page knows (typed here, a frame's, or the script's); `declared` the layout's
    // `value`, which changes only when the page's script changes the text (the app's write,
    // which the engine makes the session's text).
    const fields = new WeakMap();
    let restate = new Map(); // item id → the text to declare before a script's write (see below)
    let writing = false;     // while a frame's text goes into a field: not the page's write

    // A script's `el.value = …` fires no event and no mutation: the value setters of inputs and
    // text areas marked as items schedule a measure too, native behaviour unchanged.
    for (const proto of [HTMLInputElement.prototype, HTMLTextAreaElement.prototype]) {
      const native = Object.getOwnPropertyDescriptor(proto, "value");
      Object.defineProperty(proto, "value", { ...native, set(value) {
        native.set.call(this, value);
        if (!writing && this.hasAttribute("data-focus-id")) schedule();
      } });
    }

    /** The marked element with this id (the last measure's, else a fresh look-up). */
    function element(id) {
      const known = elements.get(id);
      if (known && known.isConnected) return known;
      return document.querySelector(`[data-focus-id="${CSS.escape(id)}"]`);
    }

    function flag(el, name) { return el.hasAttribute(name) && el.getAttribute(name) !== "false"; }
    function round(v) { return Math.round(v * 100) / 100; }

    /** The page's layout: every marked element that is shown, measured. */
    export function measure() {
      const root = document.documentElement;
      const shift = new Map(); // scroll group element → its own and its ancestors' scroll
      const scrollOf = (el) => {
        const outer = el.parentElement && el.parentElement.closest("[data-focus-scroll]");
        if (!outer) return [0, 0];
        if (!shift.has(outer)) {
          const above = scrollOf(outer);
          shift.set(outer, [above[0] + outer.scrollLeft, above[1] + outer.scrollTop]);
        }
        return shift.get(outer);
      };
      const frame = (el) => {
        const r = el.getBoundingClientRect();
        const [dx, dy] = scrollOf(el);
        return [round(r.left + scrollX + dx), round(r.top + scrollY + dy),
          round(r.width), round(r.height)];
      };
      const visible = (el) => el.getClientRects().length > 0;
      const layout = { canvas: { width: Math.max(root.scrollWidth, root.clientWidth, 1),
        height: Math.max(root.scrollHeight, root.clientHeight, 1) }, items: [], groups: [], guides: [] };
      const body = document.body;
      for (const [attribute, field] of [["data-focus-search", "search"],
        ["data-focus-navigation", "navigation"], ["data-focus-verbosity", "verbosity"]]) {
        if (body.hasAttribute(attribute)) layout[field] = body.getAttribute(attribute);
      }
      const groups = new Map();
      for (const el of document.querySelectorAll("[data-focus-group]")) {
        if (!visible(el)) continue;
        const group = { id: el.dataset.focusGroup, items: [], groups: [] };
        if (flag(el, "data-focus-trap")) group.trapsFocus = true;
        if (flag(el, "data-focus-remember")) group.remembersLastFocused = true;
        if (flag(el, "data-focus-selection-follows")) group.selectionFollowsFocus = true;
        if (flag(el, "data-focus-disabled")) group.enabled = false;
        if (el.dataset.focusPreferred) group.preferredFocus = el.dataset.focusPreferred;
        if (el.dataset.focusSearch) group.search = el.dataset.focusSearch;
        if (el.dataset.focusNavigation) group.navigation = el.dataset.focusNavigation;
        if (el.hasAttribute("aria-label")) group.accessibilityLabel = el.getAttribute("aria-label");
        if (el.dataset.focusScroll) {
          group.scroll = el.dataset.focusScroll;
          group.viewport = frame(el);
        }
        const outer = el.parentElement && el.parentElement.closest("[data-focus-group]");
        (outer && groups.get(outer) ? groups.get(outer).groups : layout.groups).push(group);
        groups.set(el, group);
      }
      const parts = contentParts();
      const found = new Map();
      for (const el of document.querySelectorAll("[data-focus-id]")) {
        if (!visible(el)) continue;
        const id = el.dataset.focusId;
        const own = parts.get(el) || {};
        const title = el.dataset.focusTitle ?? el.getAttribute("aria-label") ?? own.title ??
          text(el);
        const item = { id, title, frame: frame(el), toggles: flag(el, "data-focus-toggle") };
        for (const name of CONTENT) {
          const value = el.getAttribute(`data-focus-${name}`) ?? own[name];
          if (value) item[name] = value;
        }
        if (flag(el, "data-focus-unavailable") || el.disabled || el.getAttribute("aria-disabled") === "true") {
          item.available = false;
        }
        if (flag(el, "data-focus-selected")) item.selected = true;
        const priority = el.dataset.focusPriority;
        if (priority) item.priority = /^-?\d+$/.test(priority) ? Number(priority) : priority;
        if (el.dataset.focusKind) item.kind = el.dataset.focusKind;
        else if (editable(el)) item.kind = "textField";
        if (editable(el)) {
          // The field's text as the page first holds it, then as its script last wrote it: the
          // session's text when the field is new or the declared value changes.
          const now = fieldText(el);
          let field = fields.get(el);
          if (!field) fields.set(el, field = { known: now, declared: now });
          else if (now !== field.known) {
            // Typing and frames update `known`: the page's script changed the text. A write of
            // the value already declared would be no change: that goes out after a layout
            // declaring the text the session had (changedLayout).
            if (now === field.declared) restate.set(id, field.known);
            field.known = field.declared = now;
          }
          if (field.declared) item.value = field.declared;
        }
        if (el.dataset.focusEffect) item.focusEffect = el.dataset.focusEffect;
        if (el.dataset.focusHint) item.accessibilityHint = el.dataset.focusHint;
        const owner = el.parentElement && el.parentElement.closest("[data-focus-group]");
        if (owner && groups.get(owner)) groups.get(owner).items.push(id);
        layout.items.push(item);
        found.set(id, el);
        if (!observedSizes.has(el)) { observedSizes.add(el); sizes.observe(el); }
      }
      for (const el of document.querySelectorAll("[data-focus-guide]")) {
        if (!visible(el)) continue;
        const guide = { id: el.dataset.focusGuide, frame: frame(el),
          destinations: (el.dataset.focusDestinations || "").split(/\s+/).filter(Boolean) };
        if (flag(el, "data-focus-disabled")) guide.enabled = false;
        const owner = el.parentElement && el.parentElement.closest("[data-focus-group]");
        if (owner && groups.get(owner)) guide.group = groups.get(owner).id;
        layout.guides.push(guide);
      }
      const initial = body.dataset.focusInitial;
      if (initial && found.has(initial)) layout.initialFocus = initial;
      elements = found;
      groupElements = new Map([...groups].map(([el, group]) => [group.id, el]));
      return layout;
    }

    /** An element's text, spaces collapsed, at most 200 characters. */
    function text(el) { return el.textContent.replace(/\s+/g, " ").trim().slice(0, 200); }

    /** A text field's text, cut to the layout format's 4,096 bytes. */
    function fieldText(el) {
      let value = el.isContentEditable ? el.textContent : el.value;
      while (new TextEncoder().encode(value).length > 4096) value = value.slice(0, -64);
      return value;
    }

    /** Whether typing goes into `el` (a text input, a text area, editable content). */
    function editable(el) {
      if (el.isContentEditable || el.localName === "textarea") return true;
      return el.localName === "input" &&
        !["button", "checkbox", "radio", "range", "color", "file", "submit", "reset", "image"]
          .includes(el.type);
    }

    /** Item element → its content from children marked data-focus-content="subtitle" (or title,
     * body, badge): one pass over the document, not one per item. */
    function contentParts() {
      const result = new Map();
      for (const el of document.querySelectorAll("[data-focus-content]")) {
        const owner = el.closest("[data-focus-id]");
        const name = el.dataset.focusContent;
        if (!owner || !["title", "subtitle", "body", "badge"].includes(name)) continue;
        if (!result.has(owner)) result.set(owner, {});
        result.get(owner)[name] = text(el);
      }
      return result;
    }

    /** The layout as JSON when it changed since it was last sent, else null. */
    function changedLayout() {
      const layout = measure();
      if (restate.size) {
        // A script wrote the value a field already declares (clearing a field declared empty
        // after something was typed): first declare the text the session had, so the write is
        // a change of the declared value that the engine applies.
        const written = [];
        for (const item of layout.items) {
          if (!restate.has(item.id)) continue;
          written.push([item, item.value]);
          if (restate.get(item.id)) item.value = restate.get(item.id); else delete item.value;
        }
        restate = new Map();
        const json = JSON.stringify(layout);
        if (json !== sent) { sent = json; post({ tenfoot: "layout", layout }); }
        for (const [item, value] of written) {
          if (value === undefined) delete item.value; else item.value = value;
        }
      }
      const json = JSON.stringify(layout);
      if (json === sent) return null;
      sent = json;
      return layout;
    }

    function post(message) {
      if (inactive || !socket || socket.readyState !== WebSocket.OPEN) return;
      let json = JSON.stringify(message);
      if (json.length * 3 > LIMIT && new TextEncoder().encode(json).length > LIMIT) {
        fail(`the page's ${message.tenfoot || "input"} message is too big for the screen ` +
          `(${new TextEncoder().encode(json).length} bytes, at most 8 MiB); not sent`);
        if (message.tenfoot !== "reaction") return;
        json = JSON.stringify({ ...message, layout: null }); // the broker waits for the answer
      }
      socket.send(json);
    }

    /** Sends the layout if it changed: once per animation frame, whatever changed how often. */
    function flush() {
      scheduled = false;
      mutations.takeRecords();
      const layout = changedLayout();
      if (layout) post({ tenfoot: "layout", layout });
    }

    function schedule() {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => { if (scheduled) flush(); });
      setTimeout(() => { if (scheduled) flush(); }, 100); // a hidden tab has no animation frames
    }

    const mutations = new MutationObserver((records) => {
      if (records.every((r) => live && live.contains(r.target))) return;
      schedule();
    });
    const sizes = new ResizeObserver(() => schedule());

    function dispatch(event, seq) {
      const target = (event.id && element(event.id)) ||
        (event.type === "focus" && event.to && element(event.to)) || document;
      target.dispatchEvent(new CustomEvent(`tenfoot:${event.type}`,
        { bubbles: true, detail: { ...event, seq } }));
    }

    /** Shows a frame: states, parallax, scroll, announcement, then its events. */
    function show(frame) {
      const states = frame.states || {};
      for (const el of shown) {
        const id = el.dataset.focusId;
        if (!el.isConnected || !states[id]) { el.removeAttribute("data-focus-state"); shown.delete(el); }
      }
      for (const [id, state] of Object.entries(states)) {
        const el = element(id);
        if (!el) continue;
        if (el.getAttribute("data-focus-state") !== state) el.setAttribute("data-focus-state", state);
        shown.add(el);
      }
      const p = frame.parallax;
      const target = p && element(p.item);
      if (lifted && lifted !== target) {
        for (const name of PARALLAX) lifted.style.removeProperty(`--tenfoot-${name}`);
      }
      lifted = target || null;
      if (target) {
        const values = { "rotate-x": `${p.rotateX}deg`, "rotate-y": `${p.rotateY}deg`, scale: p.scale,
          "shadow-radius": `${p.shadowRadius}px`, "shadow-offset-y": `${p.shadowOffsetY}px`,
          "shadow-opacity": p.shadowOpacity, "specular-x": `${p.specularX * 100}%`,
          "specular-y": `${p.specularY * 100}%` };
        for (const [name, value] of Object.entries(values)) {
          target.style.setProperty(`--tenfoot-${name}`, String(value));
        }
      }
      for (const [group, [x, y]] of Object.entries(frame.scroll || {})) {
        const el = groupElements.get(group);
        if (el) el.scrollTo({ left: x, top: y });
      }
      if (frame.focused && frame.focused !== tenfoot.focused) {
        // After this task: scrolling forces a layout, which the state change need not wait for.
        const el = element(frame.focused);
        if (el && !el.closest("[data-focus-scroll]")) {
          requestAnimationFrame(() => el.scrollIntoView({ block: "nearest", inline: "nearest" }));
        }
      }
      for (const [id, value] of Object.entries(frame.text || {})) {
        const el = element(id);
        const field = el && fields.get(el);
        // Every frame carries every field's text: only a change of the session's text goes
        // into the field, so a script's write waiting for its measure is not undone.
        if (!el || (field && field.known === value)) continue;
        if (el.isContentEditable) {
          // Editable content holding plain text takes the session's text (`known` first: the
          // mutation it makes is not the script's write). Rich content (elements inside) is
          // the page's to edit: replacing it would lose its markup.
          if (el.firstElementChild || el.textContent === value) continue;
          if (field) field.known = value;
          el.textContent = value;
          continue;
        }
        if (!("value" in el)) continue;
        if (field) field.known = value;
        if (el.value !== value) {
          writing = true;
          try { el.value = value; } finally { writing = false; }
        }
      }
      if (frame.focused && frame.focused !== tenfoot.focused) {
        const el = element(frame.focused);
        if (el && editable(el)) el.focus({ preventScroll: true });
        else if (document.activeElement && editable(document.activeElement)) document.activeElement.blur();
      }
      if (frame.announcement && live) live.textContent = frame.announcement;
      tenfoot.focused = frame.focused || null;
      const replay = fresh;
      fresh = false;
      if (replay || frame.seq <= lastSeq) { lastSeq = Math.max(lastSeq, frame.seq); return; }
      lastSeq = frame.seq;
      const events = frame.events || [];
      if (!events.length) return;
      reacting = { focus: null };
      try {
        for (const event of events) dispatch(event, frame.seq);
      } finally {
        const focus = reacting.focus;
        reacting = null;
        if (events.some((e) => AWAITED.has(e.type))) {
          // The listeners' DOM changes are the reaction to this frame.
          mutations.takeRecords();
          scheduled = false;
          post({ tenfoot: "reaction", seq: frame.seq, layout: changedLayout(), focus });
        } else if (focus) {
          flush();
          post({ tenfoot: "focus", id: focus });
        }
      }
    }
    const PARALLAX = ["rotate-x", "rotate-y", "scale", "shadow-radius", "shadow-offset-y",
      "shadow-opacity", "specular-x", "specular-y"];

    function fail(message) {
      console.error(`tenfoot: ${message}`);
      document.dispatchEvent(new CustomEvent("tenfoot:error", { detail: { message } }));
    }

    // Pairing, as the web screen's own page shows it: while a remote pairs, the PIN to type on
    // it; after too many wrong PINs, that pairing is closed and how to open it again. Each change
    // is a cancelable tenfoot:pairing event (detail: prompt { pin, remote, broker } or null, and
    // closed); a page that draws these itself calls preventDefault(), else tenfoot.js shows a
    // dialog over the page (the PIN wins over the closed notice, as on the built-in page).
    let pairing = { prompt: null, closed: false }, pairingBox = null;
    function showPairing(change) {
      pairing = { ...pairing, ...change };
      const drawn = document.dispatchEvent(new CustomEvent("tenfoot:pairing",
        { detail: { ...pairing }, cancelable: true }));
      drawPairing(drawn && (pairing.prompt || pairing.closed) ? pairing : null);
    }
    function styled(el, styles) {
      for (const [name, value] of Object.entries(styles)) el.style.setProperty(name, value);
      return el;
    }
    function drawPairing(state) {
      if (!state) {
        if (pairingBox) { pairingBox.hidden = true; pairingBox.style.setProperty("display", "none"); }
        return;
      }
      if (!pairingBox) {
        pairingBox = styled(document.createElement("div"), { position: "fixed", inset: "0",
          "place-items": "center", background: "rgba(0, 0, 0, 0.7)", "z-index": "2147483647",
          color: "#fff", font: "24px system-ui, sans-serif", "text-align": "center" });
        pairingBox.dataset.tenfootPairing = "";
        pairingBox.setAttribute("role", "dialog");
        pairingBox.setAttribute("aria-label", "pairing");
        document.body.append(pairingBox);
      }
      const card = styled(document.createElement("div"), { background: "#1c1c1e",
        padding: "32px 48px", "border-radius": "16px", "max-width": "32em" });
      const line = (text, size, name) => {
        const p = styled(document.createElement("p"), size ? { "font-size": size } : {});
        p.textContent = text;
        if (name) p.dataset[name] = "";
        card.append(p);
      };
      if (state.prompt) {
        line(`“${state.prompt.remote}” wants to pair`);
        line(state.prompt.pin, "64px", "tenfootPin");
        line(`Type this code on the remote. Broker key ${state.prompt.broker}: check the remote `
          + "shows the same.", "16px");
      } else {
        line("Pairing is closed: too many wrong PINs", null, "tenfootPairingClosed");
        line("To open it at this screen, run tenfoot-screen pairing open on its host (with this "
          + "screen's --id and connection options).", "16px");
      }
      pairingBox.replaceChildren(card);
      pairingBox.hidden = false;
      pairingBox.style.setProperty("display", "grid");
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      // role=app: this page is the app (the screen also wants the key cookie loading it set).
      socket = new WebSocket(
        `${scheme}://${location.host}/ws?key=${encodeURIComponent(key)}&role=app`);
      socket.addEventListener("open", () => {
        sent = "";
        fresh = true;
        flush();
        document.dispatchEvent(new CustomEvent("tenfoot:connected"));
      });
      socket.addEventListener("message", (e) => {
        const message = JSON.parse(e.data);
        if (message.frame) show(message.frame);
        if (message.appError) fail(message.appError.message);
        if ("pairing" in message) showPairing({ prompt: message.pairing });
        if ("pairingClosed" in message) showPairing({ closed: message.pairingClosed === true });
        if (message.inactive) {
          inactive = true;
          for (const el of shown) el.removeAttribute("data-focus-state");
          shown.clear();
          document.dispatchEvent(new CustomEvent("tenfoot:inactive", { detail: message.inactive }));
        }
      });
      socket.addEventListener("close", (e) => {
        if (inactive) return; // another page is the app; reloading this one takes over again
        if (e.code === 1009) fail("the page's layout is too big for the screen (at most 8 MiB)");
        document.dispatchEvent(new CustomEvent("tenfoot:disconnected"));
        setTimeout(connect, 500);
      });
    }

    function forwardInput() {
      const send = (message, e) => {
        message.t = e && e.timeStamp > 0 ? e.timeStamp : performance.now();
        post(message);
      };
      const down = new Map();
      document.addEventListener("input", (e) => {
        const el = e.target.closest && e.target.closest("[data-focus-id]");
        if (!el || !editable(el)) return;
        const text = el.isContentEditable ? el.textContent : el.value;
        const field = fields.get(el);
        if (field) field.known = fieldText(el);
        send({ text }, e);
      });
      document.addEventListener("keydown", (e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        // In a text field, keys that edit text stay with it (Backspace, Space, Home, ←, →).
        if (editable(e.target) && EDITING.has(e.key)) return;
        let name = KEYS[e.key];
        if (e.key === "Tab") name = e.shiftKey ? "shift-tab" : "tab";
        if (!name) return;
        e.preventDefault();
        if (e.repeat) { send({ key: down.get(e.code) || name, phase: "held" }, e); return; }
        down.set(e.code, name);
        send({ key: name, phase: "down" }, e);
      });
      document.addEventListener("keyup", (e) => {
        const name = down.get(e.code);
        if (!name) return;
        down.delete(e.code);
        e.preventDefault();
        send({ key: name, phase: "up" }, e);
      });
      const pointer = (phase) => (e) => send({ pointer: phase, x: e.pageX, y: e.pageY,
        buttons: e.buttons }, e);
      document.addEventListener("pointerdown", pointer("down"));
      document.addEventListener("pointerup", pointer("up"));
      document.addEventListener("pointercancel", pointer("cancelled"));
      let moved = null;
      document.addEventListener("pointermove", (e) => {
        if (moved === null) requestAnimationFrame(() => { send(moved.message, moved.e); moved = null; });
        moved = { message: { pointer: "moved", x: e.pageX, y: e.pageY, buttons: e.buttons }, e };
      });
    }

    /** The page's handle on TenFoot. */
    export const tenfoot = {
      /** The focused item's id (null: none). */
      focused: null,
      /** Asks for focus on an item; inside a tenfoot:* listener it goes with the reaction. */
      focus(id) {
        if (reacting) { reacting.focus = id; return; }
        flush();
        post({ tenfoot: "focus", id });
      },
      /** Measures and sends the layout now (it is sent on every DOM change anyway). */
      refresh() { flush(); },
      measure,
    };
    globalThis.tenfoot = tenfoot;
    export default tenfoot;

    function start() {
      live = document.createElement("div");
      live.setAttribute("aria-live", "polite");
      live.setAttribute("role", "status");
      live.dataset.tenfootLive = "";
      for (const [name, value] of Object.entries({ position: "absolute", width: "1px", height: "1px",
        overflow: "hidden", clip: "rect(0 0 0 0)", "white-space": "nowrap" })) {
        live.style.setProperty(name, value);
      }
      document.body.append(live);
      mutations.observe(document.body, { subtree: true, childList: true, attributes: true,
        attributeFilter: WATCHED, characterData: true });
      addEventListener("resize", schedule);
      forwardInput();
      connect();
    }

    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
    """#
}
