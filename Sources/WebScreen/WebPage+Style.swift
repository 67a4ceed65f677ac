extension WebPage {
  /// The page's base style sheet: the stage, the cards and their layers, the pairing and
  /// link overlays, the status line and the on-page remote (the display, content and
  /// accessibility sheets follow it).
  static let css = """
    html, body { margin: 0; height: 100%; background: #0b0d12; color: #eef1f6;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; overflow: hidden; }
    #viewport { position: absolute; inset: 0 214px 40px 0; overflow: hidden; }
    #stage { position: absolute; left: 0; top: 0; transform-origin: 0 0; overflow: hidden;
      background: radial-gradient(ellipse at 50% 0%, #1d2433 0%, #0b0d12 70%); }
    .item { position: absolute; box-sizing: border-box; border-radius: 14px; will-change: transform;
      transform-style: preserve-3d; background: #1a1f2b; overflow: hidden;
      transition: transform 0.28s cubic-bezier(0.2, 0.8, 0.2, 1), box-shadow 0.28s ease,
        filter 0.28s ease, opacity 0.28s ease; }
    #pairing { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
      background: rgba(5, 7, 11, 0.72); backdrop-filter: blur(6px); z-index: 10; }
    #pairing[hidden] { display: none; }
    #link { position: absolute; left: 0; right: 0; top: 0; z-index: 11; padding: 14px 24px;
      background: #7a1d12; color: #fff; font-size: 24px; font-weight: 700; text-align: center; }
    #link[hidden] { display: none; }
    body.stale #stage { filter: grayscale(0.85) brightness(0.7); }
    #pairing .card { background: #1a1f2b; border-radius: 22px; padding: 36px 56px; text-align: center;
      box-shadow: 0 30px 80px rgba(0, 0, 0, 0.6); font-size: 26px; }
    #pairing #pin { font-size: 96px; font-weight: 700; letter-spacing: 0.35em; margin: 12px 0 8px 0.35em;
      font-variant-numeric: tabular-nums; }
    #pairing .small { font-size: 18px; color: #aab3c5; }
    .label { position: absolute; box-sizing: border-box; font-weight: 700; color: #eef1f6; white-space: nowrap;
      overflow: hidden; text-overflow: ellipsis; display: flex; align-items: flex-end;
      transition: transform 0.28s cubic-bezier(0.2, 0.8, 0.2, 1), opacity 0.28s ease; }
    .label.behind { opacity: 0.35; }
    #stage.instant .label { transition: none !important; }
    #stage.instant .item, #stage.instant .item * { transition: none !important; }
    .item .layer { position: absolute; inset: -12px; transition: transform 0.28s cubic-bezier(0.2, 0.8, 0.2, 1); }
    .item .face { position: absolute; inset: 0; }
    .item .title { position: absolute; left: 0; right: 0; bottom: 0; padding: 8% 8% 7%; font-weight: 600;
      font-size: 22px; line-height: 1.15; text-shadow: 0 1px 3px rgba(0, 0, 0, 0.7);
      background: linear-gradient(transparent, rgba(0, 0, 0, 0.55)); transition: transform 0.28s ease; }
    .item.short .title { top: 0; bottom: 0; display: flex; align-items: center; justify-content: center;
      padding: 0 10px; background: none; font-size: 24px; }
    .item .specular { position: absolute; inset: 0; opacity: 0; pointer-events: none; mix-blend-mode: screen;
      transition: opacity 0.28s ease, background-position 0.28s ease; }
    .item .heart { position: absolute; top: 8px; right: 12px; font-size: 28px; color: #ff3b5c; display: none;
      text-shadow: 0 1px 4px rgba(0, 0, 0, 0.6); }
    .item.focused { z-index: 10; }
    .item.focused .specular { opacity: 1; }
    .item.focused .title { transform: translateY(-4px); }
    .item.highlighted { z-index: 9; filter: brightness(0.72); }
    .item.selected .heart { display: block; }
    .item.fx-halo.focused, .item.fx-halo.highlighted { outline: 5px solid var(--accent, #5aaaff); outline-offset: 6px; }
    .item.fx-highlight.focused .title, .item.fx-highlight.highlighted .title { color: #5aaaff; background: none; }
    .item.fx-highlight.focused, .item.fx-highlight.highlighted { background: #141821; }
    .item.fx-highlight.focused > .face, .item.fx-highlight.focused > .layer,
      .item.fx-highlight.focused > .art { opacity: 0; }
    .item.fx-halo .specular, .item.fx-highlight .specular { display: none; }
    .item.unavailable { filter: grayscale(1) brightness(0.55); opacity: 0.55; }
    .item.behind { filter: brightness(0.3) saturate(0.6); }
    .item.textfield { background: #e9edf5; color: #141821; }
    .item.textfield .face { display: none; }
    .item.textfield .title { color: #141821; text-shadow: none; background: none; top: 0; display: flex;
      align-items: center; padding: 0 18px; font-weight: 500; }
    .item.textfield .value:empty::before { content: attr(data-placeholder); color: #7a8294; }
    .item.textfield.editing .value::after { content: "▏"; animation: blink 1s steps(1) infinite; }
    @keyframes blink { 50% { opacity: 0; } }
    #pointer { position: absolute; left: 0; top: 0; width: 36px; height: 36px; box-sizing: border-box;
      border-radius: 18px; background: rgba(236, 240, 248, 0.55); border: 1px solid rgba(255, 255, 255, 0.75);
      box-shadow: 0 2px 10px rgba(0, 0, 0, 0.35); pointer-events: none; z-index: 20; opacity: 1;
      transition: transform 0.12s ease-out, width 0.22s cubic-bezier(0.2, 0.8, 0.2, 1),
        height 0.22s cubic-bezier(0.2, 0.8, 0.2, 1), border-radius 0.22s ease, opacity 0.2s ease,
        background 0.22s ease; }
    #pointer.hidden, #pointer.shape-lift { opacity: 0; }
    #pointer.shape-item { z-index: 9; background: rgba(236, 240, 248, 0.22); border-color: rgba(255, 255, 255, 0.35);
      box-shadow: 0 10px 28px rgba(0, 0, 0, 0.45); }
    #pointer.shape-ibeam { border-radius: 2px; background: rgba(236, 240, 248, 0.95); border: 0; }
    #stage.instant #pointer { transition: none !important; }
    #viewport.pointing { cursor: none; }
    .item.ptr-hover { filter: brightness(1.12); }
    #status { position: absolute; left: 0; right: 0; bottom: 0; height: 40px; line-height: 40px; padding: 0 16px;
      background: #05070a; font-size: 14px; color: #aab3c5; white-space: nowrap; overflow: hidden; }
    #conn { padding: 2px 8px; border-radius: 6px; background: #214d2e; color: #b8f5c8; }
    #conn.down { background: #5a2a22; color: #ffd0c4; }
    #remote:has(#phone-code:not([hidden])) { top: 8px; transform: none; }
    #phone-code { margin-top: 12px; text-align: center; }
    #phone-code[hidden] { display: none; }
    #phone-qr svg { width: 170px; height: 170px; display: block; margin: 0 auto; border-radius: 6px; }
    #remote #phone-code p { font-size: 12px; color: #aab3c5; margin: 6px 0 0; }
    #remote { position: absolute; right: 12px; top: 50%; transform: translateY(-60%); width: 190px; }
    #remote p { font-size: 12px; color: #7f889b; margin: 0 0 8px; line-height: 1.4; }
    #pad { position: relative; width: 190px; height: 150px; border-radius: 22px; touch-action: none;
      background: linear-gradient(160deg, #2c3342, #161a23); box-shadow: inset 0 1px 0 rgba(255, 255, 255, 0.1),
      0 8px 24px rgba(0, 0, 0, 0.5); cursor: crosshair; }
    #finger { position: absolute; width: 26px; height: 26px; margin: -13px 0 0 -13px; border-radius: 50%;
      background: rgba(255, 255, 255, 0.55); left: 50%; top: 50%; opacity: 0; transition: opacity 0.2s; }
    #pad.touching #finger { opacity: 1; }
    #buttons { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; margin-top: 8px; }
    #buttons button { background: #232936; color: #dfe5f0; border: 0; border-radius: 10px; padding: 7px 0;
      font-size: 13px; cursor: pointer; }
    """
}
