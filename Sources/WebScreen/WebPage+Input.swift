/// The page as a remote: the touch pad (also the phone page's) and the pointer over the stage.
extension WebPage {
  /// The keyboard as a remote, shared with the phone page: arrows, Enter, Escape, Home and
  /// Space as the remote's keys, a key held down repeating as `held`, and its release sent as the
  /// key it went down as. The page calls `forwardKeys(translate)`, where `translate(e)` names the
  /// remote key for a key-down (from `remoteKeys` or its own rules) or returns nothing to let the
  /// browser have it.
  package static let keyboardScript = """
    const remoteKeys = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
      Enter: "select", Escape: "menu", Home: "home", " ": "play-pause" };
    function forwardKeys(translate) {
      const down = new Map();
      document.addEventListener("keydown", (e) => {
        if (e.repeat && down.has(e.code)) {
          send({ key: down.get(e.code), phase: "held" }, e); e.preventDefault(); return;
        }
        const key = translate(e);
        if (!key) return;
        e.preventDefault();
        down.set(e.code, key);
        send({ key, phase: "down" }, e);
      });
      document.addEventListener("keyup", (e) => {
        const key = down.get(e.code);
        if (!key) return;
        down.delete(e.code);
        e.preventDefault();
        send({ key, phase: "up" }, e);
      });
    }
    """

  /// The touch pad's handlers (the Siri Remote's surface), shared with the phone page: the
  /// finger's position in -1…1 on both axes, sent as `{"touch": began|moved|ended|cancelled}`
  /// through the page's `send`.
  package static let touchPadScript = """
    const pad = document.getElementById("pad");
    const finger = document.getElementById("finger");
    let touching = null;
    function padPoint(e) {
      const r = pad.getBoundingClientRect();
      const x = Math.max(-1, Math.min(1, ((e.clientX - r.left) / r.width) * 2 - 1));
      const y = Math.max(-1, Math.min(1, ((e.clientY - r.top) / r.height) * 2 - 1));
      finger.style.left = ((x + 1) * 50) + "%"; finger.style.top = ((y + 1) * 50) + "%";
      return { x, y };
    }
    pad.addEventListener("pointerdown", (e) => {
      touching = e.pointerId; pad.setPointerCapture(e.pointerId); pad.classList.add("touching");
      send({ touch: "began", ...padPoint(e) }, e); e.preventDefault();
    });
    pad.addEventListener("pointermove", (e) => {
      if (touching !== e.pointerId) return;
      send({ touch: "moved", ...padPoint(e) }, e);
    });
    function lift(e, phase) {
      if (touching !== e.pointerId) return;
      touching = null; pad.classList.remove("touching");
      send({ touch: phase, ...padPoint(e) }, e);
    }
    pad.addEventListener("pointerup", (e) => lift(e, "ended"));
    pad.addEventListener("pointercancel", (e) => lift(e, "cancelled"));
    """

  /// The page as a pointing device (an absolute one, like LG's Magic Remote): mouse, pen or
  /// touch pointer events over the stage are turned into canvas points (the stage is scaled
  /// to fit the window) and sent as `{"pointer": moved|down|up|cancelled|scroll, x, y,
  /// buttons}`, stamped with the event's own time. Moves are coalesced to one per animation
  /// frame (the latest position); a press or release sends the pending move first, so the
  /// broker sees them in order. The touch pad and the buttons are outside the stage and keep
  /// their Siri Remote role. The wheel sends its deltas in canvas points.
  static let pointerScript = """
    let pendingMove = null, moveScheduled = false;
    function canvasPoint(e) {
      const r = stage.getBoundingClientRect();
      const scale = layout ? r.width / layout.canvas[0] : 1;
      return { x: (e.clientX - r.left) / scale, y: (e.clientY - r.top) / scale, scale };
    }
    function flushMove() {
      moveScheduled = false;
      const e = pendingMove;
      pendingMove = null;
      if (!e || !layout) return;
      const p = canvasPoint(e);
      send({ pointer: "moved", x: p.x, y: p.y, buttons: e.buttons }, e);
    }
    function pointerOnStage(e) {
      return layout && e.isPrimary !== false;
    }
    viewport.addEventListener("pointermove", (e) => {
      if (!pointerOnStage(e)) return;
      pendingMove = e;
      if (!moveScheduled) { moveScheduled = true; requestAnimationFrame(flushMove); }
    });
    function pointerButton(e, phase) {
      if (!pointerOnStage(e)) return;
      if (pendingMove) flushMove();
      const p = canvasPoint(e);
      send({ pointer: phase, x: p.x, y: p.y, buttons: e.buttons }, e);
    }
    viewport.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      viewport.setPointerCapture(e.pointerId);
      pointerButton(e, "down"); e.preventDefault();
    });
    viewport.addEventListener("pointerup", (e) => { if (e.button === 0) pointerButton(e, "up"); });
    viewport.addEventListener("pointercancel", (e) => pointerButton(e, "cancelled"));
    viewport.addEventListener("wheel", (e) => {
      if (!layout) return;
      const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? layout.canvas[1] : 1;
      const scale = e.deltaMode === 0 ? canvasPoint(e).scale : 1;
      send({ pointer: "scroll", x: (e.deltaX * unit) / scale, y: (e.deltaY * unit) / scale, buttons: e.buttons }, e);
      e.preventDefault();
    }, { passive: false });
    """
}
