/// The page's drawing of an item's content (``ItemContent``): its picture, subtitle, body,
/// badge and accent.
///
/// - The picture is an `<img>` filling the card behind the title (`object-fit: cover`),
///   `alt=""` (the item's label names it), loaded lazily and decoded off the main thread. A
///   relative path loads from `/assets/<path>?key=…` (the page's own key: an `<img>` cannot
///   send headers, and the page server asks the same key for assets as for `/ws`); an
///   `https:` URL loads as it is (the policy's `img-src` allows `https:`).
/// - The subtitle is a smaller line under the title; the body, clamped to three lines, only
///   on tall cards (`bodyMinHeight` canvas points and more).
/// - The badge is a tag in the card's top-left corner, for any item that has one.
/// - The accent (`#rrggbb`) is a bar along the card's foot, the colour of the halo, and a
///   glow around the focused card's white ring (the ring itself stays, so the five states
///   stay apart whatever the colour).
///
/// Every text goes in through `textContent`, never as markup.
extension WebPage {
  /// Content styles (before the display options', which override them).
  static let contentCSS = """
    .item .art { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; display: block;
      transition: filter 0.28s ease, opacity 0.28s ease; }
    .item .title .subtitle { font-size: 0.72em; font-weight: 500; opacity: 0.88; margin-top: 4px;
      white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .item .title .body { font-size: 0.62em; font-weight: 400; opacity: 0.85; margin-top: 6px; line-height: 1.3;
      display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
    .item.short .title .subtitle, .item.short .title .body { display: none; }
    .item .badge { position: absolute; top: 10px; left: 12px; max-width: calc(100% - 24px); box-sizing: border-box;
      font-size: 15px; font-weight: 700; letter-spacing: 0.04em; text-transform: uppercase; white-space: nowrap;
      overflow: hidden; text-overflow: ellipsis; background: rgba(0, 0, 0, 0.6); padding: 3px 8px; border-radius: 6px; }
    .item .accent-bar { position: absolute; left: 0; right: 0; bottom: 0; height: 6px; background: var(--accent); }
    .item.unavailable .accent-bar { filter: grayscale(1) brightness(0.7); }
    .contrast-high .item .accent-bar { display: none; }
    .contrast-high .item .badge { background: #000; color: #fff; box-shadow: inset 0 0 0 2px #fff; }
    """

  /// `contentArt(item)`, `contentText(item, title)` and `contentMarks(item, el)`, which the
  /// page's `build()` calls for every card, and `contentRefresh(n)`, which redraws a card's
  /// title and content from its item (a virtual cell whose content came).
  static let contentScript = """
    const BODY_MIN_HEIGHT = \(bodyMinHeight);  // Canvas points: shorter cards show no body.
    const ACCENT = /^#[0-9a-fA-F]{6}$/;

    // The URL of an item's image: a relative path from the screen's assets, with the page's
    // key (an <img> sends no headers); an https: URL as it is.
    function imageURL(image) {
      if (image.startsWith("https://")) return image;
      return "/assets/" + image.split("/").map(encodeURIComponent).join("/") +
        "?key=" + encodeURIComponent(accessKey);
    }

    // The card's picture, behind its title (null without an image, and for text fields).
    function contentArt(item) {
      if (!item.image || item.kind === "textField") return null;
      const img = document.createElement("img");
      img.className = "art"; img.alt = ""; img.loading = "lazy"; img.decoding = "async";
      img.draggable = false;
      img.src = imageURL(item.image);
      return img;
    }

    // The subtitle under the title, and the body on tall cards.
    function contentText(item, title) {
      if (item.subtitle) {
        const sub = document.createElement("div");
        sub.className = "subtitle"; sub.textContent = item.subtitle;
        title.appendChild(sub);
      }
      if (item.body && item.frame[3] >= BODY_MIN_HEIGHT) {
        const body = document.createElement("div");
        body.className = "body"; body.textContent = item.body;
        title.appendChild(body);
      }
    }

    // The badge and the accent bar on the card; returns the accent colour (null: none).
    function contentMarks(item, el) {
      if (item.badge) {
        const badge = document.createElement("div");
        badge.className = "badge"; badge.textContent = item.badge;
        el.appendChild(badge);
      }
      if (!item.accent || !ACCENT.test(item.accent)) return null;
      el.style.setProperty("--accent", item.accent);
      const bar = document.createElement("div");
      bar.className = "accent-bar";
      el.appendChild(bar);
      return item.accent;
    }

    // Card `n`'s title, picture, badge and accent again from `n.item`, in the places card()
    // gives them.
    function contentRefresh(n) {
      const item = n.item, el = n.el;
      for (const old of el.querySelectorAll(":scope > .art, :scope > .badge, :scope > .accent-bar")) old.remove();
      el.style.removeProperty("--accent");
      const art = contentArt(item);
      if (art) el.insertBefore(art, n.title);
      n.title.textContent = item.title;
      contentText(item, n.title);
      n.accent = contentMarks(item, el);
    }
    """

  /// The least card height, canvas points, that shows an item's body.
  static let bodyMinHeight = 300
}
