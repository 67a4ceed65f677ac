/// The web renderer's page: HTML, CSS and JavaScript in one document, no external assets.
///
/// It opens a WebSocket to `/ws`, builds the grid from the layout message and restyles it on
/// every frame message: CSS 3D (perspective, rotateX/rotateY, scale) from the focused item's
/// parallax, per-layer translation, a shadow from the engine's per-state numbers, a specular
/// gradient, and CSS transitions that ease every change (the tilt settling back to rest).
/// The keyboard and the touch pad send remote input back; a dropped socket reconnects.
package enum WebPage {
  /// The start of every page this server sends, up to its title (the caller adds its styles and
  /// closes `<head>`): the doctype, the language, UTF-8 and a viewport for phones and TVs.
  package static func documentHead(
    title: String, viewport: String = "width=device-width, initial-scale=1"
  ) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="\(viewport)">
    <title>\(title)</title>
    """
  }

  /// The whole page.
  static let html = """
    \(documentHead(title: "TenFoot screen"))
    <style\(PageSecurity.nonceAttribute)>
    \(css)
    \(contentCSS)
    \(displayCSS)
    </style>
    <style\(PageSecurity.nonceAttribute)>
    \(accessibilityCSS)
    </style>
    </head>
    <body>
    <div id="viewport"><div id="stage"></div></div>
    <div id="pairing" hidden role="dialog" aria-label="pairing">
      <div class="card" id="pin-card"><p>Pair a remote</p><div id="pin"></div>
        <p id="pair-remote"></p><p class="small">Type this code on the remote.
        Broker key <span id="pair-broker"></span>: check the remote shows the same.</p></div>
      <div class="card" id="closed-card" hidden><p>Pairing is closed: too many wrong PINs</p>
        <p class="small">To open it at this screen, run <code>tenfoot-screen pairing open</code>
        on its host (with this screen's --id and connection options).</p></div>
    </div>
    <div id="link" hidden role="alert">The broker is not answering: input cannot work.
      What you see is the last state.</div>
    <div id="status"><span id="conn" class="down">connecting…</span> <span id="info"></span></div>
    \(announcer)
    <div id="remote" aria-label="remote">
      <p>Remote: arrows, Enter, Esc (Menu), Tab. Drag on the pad to tilt; flick to swipe.</p>
      <div id="pad" title="touch surface: drag to tilt, swipe to move"><div id="finger"></div></div>
      <div id="buttons">
        <button data-key="menu">Menu</button><button data-key="home">Home</button>
        <button data-key="select">Select</button><button data-key="play-pause">Play/Pause</button>
      </div>
      <div id="phone-code" hidden aria-label="phone remote code"><div id="phone-qr"></div>
        <p>Scan with a phone to use it as a remote</p></div>
    </div>
    <script\(PageSecurity.nonceAttribute)>
    \(accessibilityScript)
    </script>
    <script\(PageSecurity.nonceAttribute)>
    \(displayScript)
    \(contentScript)
    \(script)
    \(virtualScript)
    </script>
    </body>
    </html>
    """

  static let script = """
    "use strict";
    const stage = document.getElementById("stage");
    const viewport = document.getElementById("viewport");
    const conn = document.getElementById("conn");
    const info = document.getElementById("info");
    let layout = null, frame = null, socket = null, retry = 250, pointerEl = null;
    const HOVER_SCALE = 1.06;  // The pointer's hover effect: a gentle scale and brightening.
    const POINTER_PADDING = 10;  // Under highlight the pointer's platter shows this far around the item.
    const nodes = new Map();
    const labels = new Map();  // Headings: drawn and scrolled, never focused.
    const PERSPECTIVE = 900;

    function hue(id) {
      let h = 2166136261;
      for (const c of id) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
      return h % 360;
    }

    function fit() {
      if (!layout) return;
      const s = Math.min(viewport.clientWidth / layout.canvas[0], viewport.clientHeight / layout.canvas[1]);
      stage.style.width = layout.canvas[0] + "px";
      stage.style.height = layout.canvas[1] + "px";
      stage.style.transform = "scale(" + s + ")";
    }
    window.addEventListener("resize", fit);

    function build() {
      stage.textContent = "";
      stage.classList.add("instant");  // A new layout appears at once; changes after it ease.
      nodes.clear();
      labels.clear();
      for (const item of layout.items) {
        const [x, y, w, h] = item.frame;
        if (item.kind === "label") {
          const el = document.createElement("div");
          el.id = "label-" + item.id; el.className = "label"; el.textContent = item.title;
          el.style.left = x + "px"; el.style.top = y + "px";
          el.style.width = w + "px"; el.style.height = h + "px";
          el.style.fontSize = Math.min(34, h * 0.8) + "px";
          stage.appendChild(el); labels.set(item.id, el);
          continue;
        }
        const n = card(item);
        stage.appendChild(n.el);
        nodes.set(item.id, n);
      }
      pointerEl = document.createElement("div");
      pointerEl.id = "pointer"; pointerEl.className = "hidden"; pointerEl.setAttribute("aria-hidden", "true");
      stage.appendChild(pointerEl);
      virtualBuild();
      fit();
      a11yBuild();
    }

    // An item's card, not yet on the stage: { item, el, layers, title, spec, accent }.
    function card(item) {
      const [x, y, w, h] = item.frame;
      const el = document.createElement("div");
      el.id = "item-" + item.id;
      el.dataset.id = item.id;
      el.style.left = x + "px"; el.style.top = y + "px";
      el.style.width = w + "px"; el.style.height = h + "px";
      if (item.cornerRadius != null) el.style.borderRadius = item.cornerRadius + "px";
      const g = hue(item.id);
      const layers = [];
      if (item.layers.length > 0) {
        item.layers.forEach((layer, i) => {
          const l = document.createElement("div");
          l.className = "layer";
          l.dataset.name = layer.name;
          const a = 0.25 + 0.55 * layer.depth;
          l.style.background = i === 0
            ? "linear-gradient(160deg, hsl(" + g + " 55% 42%), hsl(" + ((g + 40) % 360) + " 60% 18%))"
            : "radial-gradient(circle at " + (30 + 40 * layer.depth) + "% " + (60 - 20 * layer.depth) +
              "%, hsla(" + ((g + 180 * layer.depth) % 360) + ", 70%, 70%, " + a + ") 0 18%, transparent 19%)";
          el.appendChild(l); layers.push(l);
        });
      } else {
        const f = document.createElement("div");
        f.className = "face";
        f.style.background = "linear-gradient(160deg, hsl(" + g + " 50% 38%), hsl(" + ((g + 40) % 360) + " 55% 16%))";
        el.appendChild(f);
      }
      const art = contentArt(item);
      if (art) el.appendChild(art);
      const title = document.createElement("div");
      title.className = "title";
      if (item.kind === "textField") {
        const v = document.createElement("span");
        v.className = "value"; v.dataset.placeholder = item.title;
        title.appendChild(v);
      } else {
        title.textContent = item.title;
        contentText(item, title);
      }
      const spec = document.createElement("div"); spec.className = "specular";
      const heart = document.createElement("div"); heart.className = "heart"; heart.textContent = "♥";
      el.append(title, heart, spec);
      const accent = contentMarks(item, el);
      return { item, el, layers, title, spec, accent };
    }

    function shadowCSS(s) {
      return "0 " + s.offsetY + "px " + s.radius + "px rgba(0,0,0," + s.opacity + ")";
    }

    function draw() {
      if (!layout || !frame) return;
      virtualSync();
      const p = settled(frame.parallax);
      const shift = frame.shift || {};
      // A focus-trapping group (a modal such as a detail view) holding focus dims the rest.
      const modal = layout.groups.find((g) => g.trapsFocus && holds(g, frame.focused));
      const inModal = modal ? new Set(modal.allItems) : null;
      for (const [id, el] of labels) {
        const o = shift[id];
        el.style.transform = o ? "translate(" + o[0] + "px, " + o[1] + "px)" : "";
        el.classList.toggle("behind", !!inModal);
      }
      // The pointer's target shows its pointer effect: lift (the tvOS lift, whatever its focus
      // effect), hover (a scale and tint), highlight (the pointer becomes a platter behind it).
      const ptr = frame.pointer && frame.pointer.visible ? frame.pointer : null;
      for (const [id, n] of nodes) {
        const state = frame.states[id] || "unfocused";
        const pointed = ptr && ptr.target === id ? ptr.effect : null;
        // Halo and highlight show focus without the lift: no scale, tilt or ring.
        const flat = n.item.effect !== "lift" && pointed !== "lift";
        const look = flat && (state === "focused" || state === "highlighted") ? "unfocused" : state;
        const style = layout.states[look] || layout.states.unfocused;
        let cls = "item " + state + (flat ? " fx-" + n.item.effect : "");
        if (n.item.kind === "textField") cls += " textfield";
        if (n.item.frame[3] < 120) cls += " short";
        if (n.accent) cls += " accented";
        if (frame.editing && frame.focused === id) cls += " editing";
        if (inModal && !inModal.has(id) && !(n.cell && holds(modal, id))) cls += " behind";
        if (pointed && pointed !== "none") cls += " ptr-" + pointed;
        n.el.className = cls;
        n.el.dataset.state = state;
        const o = n.cell ? virtualShift(n) : shift[id];
        const base = o ? "translate(" + o[0] + "px, " + o[1] + "px) " : "";
        let rx = 0, ry = 0, scale = style.scale, shadow = style.shadow, spec = [0.5, 0.5], translate = [];
        if (p && p.item === id && !flat) {
          rx = p.rotateX; ry = p.rotateY; scale = p.scale; shadow = p.shadow; spec = p.specular; translate = p.translate;
        }
        if (pointed === "hover") scale *= HOVER_SCALE;
        n.el.style.transform = base + "perspective(" + PERSPECTIVE + "px) rotateX(" + rx + "deg) rotateY(" + ry +
          "deg) scale(" + scale + ")";
        n.el.style.boxShadow = (look === "focused" ? "0 0 0 4px rgba(255,255,255,0.92), " +
          (n.accent ? "0 0 24px 8px " + n.accent + ", " : "") : "") + shadowCSS(shadow);
        n.spec.style.background = "radial-gradient(circle at " + (spec[0] * 100).toFixed(1) + "% " +
          (spec[1] * 100).toFixed(1) + "%, rgba(255,255,255,0.42), rgba(255,255,255,0.08) 38%, transparent 62%)";
        n.layers.forEach((l, i) => {
          const t = translate[i] || [0, 0];
          l.style.transform = "translate(" + t[0] + "px, " + t[1] + "px)";
        });
        if (n.item.kind === "textField") {
          n.title.firstChild.textContent = frame.text[id] || "";
        }
      }
      drawPointer(ptr);
      a11yDraw();
      if (stage.classList.contains("instant")) {
        requestAnimationFrame(() => requestAnimationFrame(() => stage.classList.remove("instant")));
      }
      const f = frame.focused ? nodes.get(frame.focused) : null;
      info.textContent = (f ? "▶ " + (f.item.title || f.item.id) + " (" + f.item.id + ")" : "nothing focused") +
        (p ? " · rotateX " + p.rotateX.toFixed(2) + "° rotateY " + p.rotateY.toFixed(2) + "° scale " + p.scale.toFixed(2) : "") +
        " · seq " + frame.seq + (frame.event ? " · " + frame.event : "");
    }

    // The pointer, in canvas points on the stage: a circle; an I-beam over a text field; under
    // highlight a rounded rectangle of the target's shape (its corner radius) behind it, moved
    // by the engine's gentle parallax; faded out under lift (the item lifts instead).
    function drawPointer(ptr) {
      if (!pointerEl) return;
      viewport.classList.toggle("pointing", !!ptr);
      const last = frame.pointer;
      if (!last) { pointerEl.className = "hidden"; return; }
      const target = last.target ? nodes.get(last.target) : null;
      let w = 36, h = 36, radius = 18;
      const x = last.x, y = last.y;
      if (last.shape === "ibeam") {
        w = 4; h = target ? Math.min(44, target.item.frame[3] * 0.6) : 36; radius = 2;
      } else if (last.shape === "item" && target) {
        // Centred where the engine draws the pointer: the item's shown centre plus parallax.
        w = target.item.frame[2] + 2 * POINTER_PADDING; h = target.item.frame[3] + 2 * POINTER_PADDING;
        radius = (target.item.cornerRadius != null ? target.item.cornerRadius : 14) + POINTER_PADDING;
      }
      const shape = last.effect === "lift" ? "lift" : last.shape === "item" && target ? "item"
        : last.shape === "ibeam" ? "ibeam" : "circle";
      pointerEl.className = "shape-" + shape + (ptr ? "" : " hidden");
      pointerEl.dataset.shape = last.shape;
      pointerEl.dataset.target = last.target || "";
      pointerEl.style.width = w + "px"; pointerEl.style.height = h + "px";
      pointerEl.style.borderRadius = radius + "px";
      pointerEl.style.transform = "translate(" + (x - w / 2) + "px, " + (y - h / 2) + "px)";
    }

    // The PIN overlay while a remote pairs (null hides it), or the notice that pairing closed
    // after too many wrong PINs (the broker withdraws the PIN when it closes).
    let pairingPrompt = null, pairingClosed = false;
    function showPairing(p) { pairingPrompt = p; drawPairing(); }
    function showPairingClosed(closed) { pairingClosed = closed === true; drawPairing(); }
    function drawPairing() {
      const p = pairingPrompt;
      document.getElementById("pairing").hidden = !p && !pairingClosed;
      document.getElementById("pin-card").hidden = !p;
      document.getElementById("closed-card").hidden = !!p || !pairingClosed;
      if (!p) return;
      document.getElementById("pin").textContent = p.pin;
      document.getElementById("pair-remote").textContent = "“" + p.remote + "” wants to pair";
      document.getElementById("pair-broker").textContent = p.broker;
    }

    // The link to the broker: while it does not answer, a banner and the stage marked stale.
    // Every message repeats the link; only a change is announced (once lost, once back).
    let linkLost = false;
    function showLink(link) {
      const lost = !!link && link.up === false;
      document.getElementById("link").hidden = !lost;
      document.body.classList.toggle("stale", lost);
      if (lost !== linkLost && link.announcement) announcerRegion.textContent = link.announcement;
      linkLost = lost;
    }

    // The phone remote's QR code (--phone-remote), an SVG made by the screen; null hides it.
    function showPhoneCode(code) {
      const box = document.getElementById("phone-code");
      box.hidden = !code;
      const holder = document.getElementById("phone-qr");
      holder.innerHTML = code ? code.svg : "";
      box.dataset.url = code ? code.url : "";
    }

    // The screen's access key, from the URL it printed (?key=…): without it the stream is refused.
    const accessKey = new URLSearchParams(location.search).get("key") || "";
    let everOpened = false;

    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host +
        "/ws?key=" + encodeURIComponent(accessKey));
      socket.onopen = () => { everOpened = true; retry = 250; conn.textContent = "live"; conn.className = ""; };
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.layout) { layout = message.layout; build(); }
        if (message.frame) { frame = message.frame; draw(); }
        if ("pairing" in message) { showPairing(message.pairing); }
        if ("pairingClosed" in message) { showPairingClosed(message.pairingClosed); }
        if ("phoneCode" in message) { showPhoneCode(message.phoneCode); }
        if ("link" in message) { showLink(message.link); }
      };
      socket.onclose = () => {
        conn.textContent = everOpened ? "reconnecting…"
          : accessKey ? "refused or unreachable: is the key in this URL the one tenfoot-screen printed?"
          : "no key in this URL: open the URL tenfoot-screen printed (…/?key=…)";
        conn.className = "down";
        setTimeout(connect, retry); retry = Math.min(retry * 2, 3000);
      };
    }
    connect();

    // Stamped with the DOM event's own time (the moment of the press, on the clock of
    // performance.now()), so a busy page or network cannot stretch a tap into a hold.
    function send(message, e) {
      if (socket && socket.readyState === WebSocket.OPEN) {
        message.t = e && e.timeStamp > 0 ? e.timeStamp : performance.now();
        socket.send(JSON.stringify(message));
      }
    }

    \(keyboardScript)
    forwardKeys((e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return null;
      const editing = frame && frame.editing && frame.focused;
      if (editing && (e.key.length === 1 || e.key === "Backspace")) {
        const value = frame.text[frame.focused] || "";
        send({ text: e.key === "Backspace" ? value.slice(0, -1) : value + e.key }, e);
        e.preventDefault(); return null;
      }
      if (e.key === "Tab") return e.shiftKey ? "shift-tab" : "tab";
      if (e.key === "Backspace") return "menu";
      return remoteKeys[e.key];
    });
    for (const b of document.querySelectorAll("#buttons button")) {
      b.addEventListener("pointerdown", (e) => send({ key: b.dataset.key, phase: "down" }, e));
      b.addEventListener("pointerup", (e) => send({ key: b.dataset.key, phase: "up" }, e));
    }

    \(touchPadScript)

    \(pointerScript)
    """
}
