import WebScreen

/// The phone remote's pages: the remote-only page a phone gets from the QR code (the web
/// page's touch pad and buttons, plus a direction pad, without the screen's picture), and the
/// page that refuses a used, expired or unknown code.
enum PhonePage {
  /// The remote-only page. It connects to `/phone/ws` with the code's token (or, after the
  /// first connection, its session), and shows whether it is pairing, connected, or cut off.
  static let html = """
    \(WebPage.documentHead(
      title: "TenFoot remote",
      viewport: "width=device-width, initial-scale=1, user-scalable=no"))
    <style\(PageSecurity.nonceAttribute)>
    html, body { margin: 0; height: 100%; background: #0b0d12; color: #eef1f6;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
    body { display: flex; flex-direction: column; align-items: center; gap: 14px; padding: 16px;
      box-sizing: border-box; user-select: none; -webkit-user-select: none; }
    #conn { padding: 4px 10px; border-radius: 8px; background: #5a2a22; color: #ffd0c4; font-size: 15px;
      text-align: center; max-width: 100%; }
    #conn.live { background: #214d2e; color: #b8f5c8; }
    #pad { position: relative; width: min(86vw, 340px); height: min(62vw, 250px); border-radius: 28px;
      touch-action: none; background: linear-gradient(160deg, #2c3342, #161a23);
      box-shadow: inset 0 1px 0 rgba(255, 255, 255, 0.1), 0 8px 24px rgba(0, 0, 0, 0.5); }
    #finger { position: absolute; width: 34px; height: 34px; margin: -17px 0 0 -17px; border-radius: 50%;
      background: rgba(255, 255, 255, 0.55); left: 50%; top: 50%; opacity: 0; transition: opacity 0.2s; }
    #pad.touching #finger { opacity: 1; }
    #dpad { display: grid; grid-template-columns: repeat(3, 64px); grid-template-rows: repeat(3, 56px); gap: 6px; }
    button { background: #232936; color: #dfe5f0; border: 0; border-radius: 12px; font-size: 17px;
      touch-action: manipulation; }
    button:active { background: #3a4358; }
    #buttons { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; width: min(86vw, 340px); }
    #buttons button { padding: 12px 0; }
    body.off #pad, body.off button { opacity: 0.35; pointer-events: none; }
    </style>
    </head>
    <body class="off">
    <div id="conn" role="status">connecting…</div>
    <div id="pad" aria-label="touch surface: drag to tilt, swipe to move"><div id="finger"></div></div>
    <div id="dpad">
      <span></span><button data-key="up" aria-label="up">▲</button><span></span>
      <button data-key="left" aria-label="left">◀</button><button data-key="select">OK</button>
      <button data-key="right" aria-label="right">▶</button>
      <span></span><button data-key="down" aria-label="down">▼</button><span></span>
    </div>
    <div id="buttons">
      <button data-key="menu">Menu</button><button data-key="home">Home</button>
      <button data-key="play-pause">Play/Pause</button>
    </div>
    <script\(PageSecurity.nonceAttribute)>
    "use strict";
    const conn = document.getElementById("conn");
    const params = new URLSearchParams(location.search);
    let token = params.get("token"), session = params.get("session"), socket = null, state = "connecting";
    let retry = 250;

    function show(text, live) {
      conn.textContent = text; conn.className = live ? "live" : "";
      document.body.className = live ? "" : "off";
    }
    function connect() {
      const query = session ? "session=" + encodeURIComponent(session) : "token=" + encodeURIComponent(token || "");
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/phone/ws?" + query);
      // A socket that neither opens nor fails (a server busy or unreachable) is given up after
      // 5 s, so the page retries instead of waiting for the browser's own, much longer, limit.
      const opening = socket;
      setTimeout(() => { if (opening.readyState === WebSocket.CONNECTING) opening.close(); }, 5000);
      socket.onmessage = (event) => {
        const p = JSON.parse(event.data).phone;
        if (!p) return;
        state = p.state;
        if (p.state === "pairing") show("pairing " + p.name + " with the screen…", false);
        if (p.state === "connected") {
          retry = 250;
          if (p.session && p.session !== session) {
            session = p.session; token = null;
            history.replaceState(null, "", "/phone?session=" + encodeURIComponent(session));
          }
          show("connected as " + p.name, true);
        }
        if (p.state === "revoked") show("disconnected: this phone's key was revoked on the broker. Scan the screen's code again to reconnect.", false);
        if (p.state === "failed") show("disconnected: " + p.message, false);
        if (p.state === "refused") show(p.message, false);
      };
      socket.onclose = () => {
        if (state === "revoked" || state === "failed" || state === "refused") return;
        if (!session) { state = "refused"; show("refused: scan the code the screen shows now", false); return; }
        show("reconnecting…", false);
        setTimeout(connect, retry); retry = Math.min(retry * 2, 3000);
      };
    }
    connect();

    function send(message, e) {
      if (socket && socket.readyState === WebSocket.OPEN && state === "connected") {
        message.t = e && e.timeStamp > 0 ? e.timeStamp : performance.now();
        socket.send(JSON.stringify(message));
      }
    }
    for (const b of document.querySelectorAll("button[data-key]")) {
      b.addEventListener("pointerdown", (e) => { send({ key: b.dataset.key, phase: "down" }, e); e.preventDefault(); });
      b.addEventListener("pointerup", (e) => send({ key: b.dataset.key, phase: "up" }, e));
    }
    \(WebPage.keyboardScript)
    forwardKeys((e) => remoteKeys[e.key]);
    \(WebPage.touchPadScript)
    </script>
    </body>
    </html>
    """

  /// The page for a code that does not let this phone in, saying why (`reason` is one of
  /// `PhoneTokens.Refusal`'s fixed sentences, so it needs no escaping).
  static func refused(_ reason: String) -> String {
    """
    \(WebPage.documentHead(title: "TenFoot remote: code not valid"))
    <style\(PageSecurity.nonceAttribute)>
    body { margin: 0; padding: 32px 20px; background: #0b0d12; color: #eef1f6;
      font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 19px; }
    h1 { font-size: 24px; color: #ffd0c4; }
    </style>
    </head>
    <body>
    <h1 id="refused">This remote link does not work</h1>
    <p id="reason">\(reason)</p>
    </body>
    </html>
    """
  }
}
