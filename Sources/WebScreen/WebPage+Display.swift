import Colour
import Foundation
import ScreenCore

/// The page's display options: reduced motion, high contrast and larger titles.
///
/// The screen's flags (`--reduce-motion`, `--contrast high`, `--text-size large`) arrive as
/// classes on `<html>`; the browser's `prefers-reduced-motion: reduce` and
/// `prefers-contrast: more`, and the query parameters `motion=reduce`, `contrast=high` and
/// `text=large`, add the same classes (and follow changes while the page is open). The
/// colours come from ``WebPalette``; titles are sized in `rem` as well, so a larger default
/// font in the browser makes them larger.
extension WebPage {
  /// The page with `display`'s options set as classes on its root element.
  static func html(for display: DisplayOptions) -> String {
    var classes: [String] = []
    if display.reduceMotion { classes.append("reduce-motion") }
    if display.contrast == .high { classes.append("contrast-high") }
    if display.textSize == .large { classes.append("text-large") }
    guard !classes.isEmpty else { return html }
    return html.replacingOccurrences(
      of: "<html lang=\"en\">",
      with: "<html lang=\"en\" class=\"\(classes.joined(separator: " "))\">")
  }

  /// Rules for every mode (the normal palette's backings), then per class.
  static let displayCSS: String = {
    let normal = WebPalette.normal
    let high = WebPalette.high
    func hex(_ color: RGB) -> String { WebPalette.hex(color) }
    let black = RGB(0, 0, 0)
    let outline = high.unfocusedOutline.map(hex) ?? "#c8c8c8"
    let yellow = hex(high.highlightedFill ?? high.ring)
    return """
      .item .title { background: \(WebPalette.rgba(black, normal.titleBacking)); font-size: max(22px, 1.375rem); }
      .item.short:not(.textfield) .title { background: \(WebPalette.rgba(black, normal.titleBacking)); font-size: max(24px, 1.5rem); }
      .item.highlighted { filter: none; outline: \(normal.ringWidth)px solid \(WebPalette.rgba(normal.ring, normal.ringOpacity)); }
      .item.highlighted .layer, .item.highlighted .face, .item.highlighted .art { filter: brightness(\(normal.highlightedArtBrightness)); }
      .item.unavailable { filter: none; opacity: 1; }
      .item.unavailable .layer, .item.unavailable .face, .item.unavailable .art { filter: grayscale(1) brightness(\(normal.unavailableArtBrightness)); }
      .item.unavailable .title, .item.unavailable .badge { color: \(hex(normal.unavailableText)); }
      .item.behind { filter: brightness(0.3) saturate(0.6); }
      .item .heart { color: \(hex(normal.heart)); background: \(WebPalette.rgba(black, normal.heartBacking)); border-radius: 50%;
        width: 40px; height: 40px; line-height: 42px; text-align: center; text-shadow: none; }
      .item.textfield .value:empty::before { color: \(hex(normal.placeholder)); }

      .reduce-motion .item, .reduce-motion .label, .reduce-motion .item * { transition: opacity 0.12s linear !important; }
      .reduce-motion .item .specular { display: none; }
      .reduce-motion .item.focused { animation: tenfoot-focus-fade 0.12s linear; }
      .reduce-motion .item.focused .title { transform: none; }
      .reduce-motion .item.textfield.editing .value::after { animation: none; }
      .reduce-motion #finger { transition: none; }
      .reduce-motion #pointer { transition: opacity 0.12s linear !important; }
      @keyframes tenfoot-focus-fade { from { opacity: 0.5; } to { opacity: 1; } }

      .contrast-high body, html.contrast-high { background: #000; color: \(hex(high.text)); }
      .contrast-high #stage { background: \(hex(high.stage)); }
      .contrast-high .item { background: #000; filter: none !important; opacity: 1 !important;
        box-shadow: inset 0 0 0 3px \(outline) !important; outline: none; }
      .contrast-high .item .layer, .contrast-high .item .face, .contrast-high .item .specular { display: none; }
      .contrast-high .item .title, .contrast-high .item.short:not(.textfield) .title { color: \(hex(high.text));
        background: #000; text-shadow: none; }
      .contrast-high .item.focused { box-shadow: 0 0 0 \(high.ringWidth)px \(hex(high.ring)), inset 0 0 0 3px \(hex(high.ring)) !important; }
      .contrast-high .item.highlighted { background: \(yellow); box-shadow: 0 0 0 \(high.ringWidth)px \(hex(high.ring)) !important; }
      .contrast-high .item.highlighted .title, .contrast-high .item.highlighted.short:not(.textfield) .title {
        background: \(yellow); color: \(hex(high.highlightedText)); }
      .contrast-high .item.unavailable { box-shadow: none !important; outline: 3px dashed \(hex(high.unavailableText)); outline-offset: -3px; }
      .contrast-high .item.unavailable .title, .contrast-high .item.unavailable .badge { color: \(hex(high.unavailableText)); background: #000; }
      .contrast-high .item .heart { color: \(hex(high.heart)); background: #000; }
      .contrast-high .item.behind, .contrast-high .label.behind { visibility: hidden; }
      .contrast-high .item.textfield { background: \(hex(high.field)); }
      .contrast-high .item.textfield .title { color: \(hex(high.fieldText)); background: \(hex(high.field)); }
      .contrast-high .item.textfield .value:empty::before { color: \(hex(high.placeholder)); }
      .contrast-high .label { color: \(hex(high.text)); }
      .contrast-high #pairing { background: #000; backdrop-filter: none; }
      .contrast-high #pairing .card { background: #000; box-shadow: inset 0 0 0 3px #fff; }
      .contrast-high #pairing .small, .contrast-high #remote p, .contrast-high #status { color: #fff; }
      .contrast-high #status { background: #000; }
      .contrast-high #buttons button { background: #000; color: #fff; box-shadow: inset 0 0 0 2px #fff; }
      .contrast-high #pad { background: #000; box-shadow: inset 0 0 0 2px #fff; }
      .contrast-high #finger { background: #fff; }
      .contrast-high #pointer { background: #fff; border: 2px solid #000; box-shadow: 0 0 0 2px #fff; }
      .contrast-high #pointer.shape-item { background: transparent; border: 4px solid \(hex(high.ring)); box-shadow: none; }

      .text-large .item .title { font-size: max(31px, 1.9rem); line-height: 1.1; }
      .text-large .item.short:not(.textfield) .title { font-size: max(32px, 2rem); }
      .text-large .label { font-size: max(46px, 2.8rem) !important; overflow: visible; }
      """
  }()

  /// Sets the classes and rests the parallax under reduced motion (`settled`, used by draw).
  static let displayScript = """
    // Display options: the screen's flags are classes on <html>; the browser's preferences
    // and ?motion=reduce, ?contrast=high, ?text=large add the same classes.
    const display = (() => {
      const root = document.documentElement;
      const fixed = new Set(root.classList);
      const params = new URLSearchParams(location.search);
      const rules = [
        ["reduce-motion", "(prefers-reduced-motion: reduce)", params.get("motion") === "reduce"],
        ["contrast-high", "(prefers-contrast: more)", params.get("contrast") === "high"],
        ["text-large", null, params.get("text") === "large"],
      ];
      let ready = false;
      function apply() {
        for (const [name, query, asked] of rules) {
          root.classList.toggle(name, fixed.has(name) || asked || (query !== null && matchMedia(query).matches));
        }
        if (ready) draw();
      }
      for (const [, query] of rules) if (query) matchMedia(query).addEventListener("change", apply);
      apply();
      ready = true;
      return { reducedMotion: () => root.classList.contains("reduce-motion") };
    })();

    // Under reduced motion the parallax rests: no tilt, no layer shift, the specular centred.
    function settled(p) {
      if (!p || !display.reducedMotion()) return p;
      return Object.assign({}, p, { rotateX: 0, rotateY: 0, specular: [0.5, 0.5],
        translate: p.translate.map(() => [0, 0]) });
    }
    """
}
