import FocusEngine

extension FocusEffect {
  /// The engine effect a wire effect carries, typed again on the screen's side; nil for what
  /// screens have no use for (a rejected layout, which the broker answers instead) or do not
  /// know (a newer peer's effect).
  public init?(wire: Tenfoot_V1_FocusEffect) {
    switch wire.kind {
    case .focusChanged(let update):
      guard let heading = FocusHeading(wire: update.heading) else { return nil }
      self = .focusChanged(
        FocusUpdateContext(
          previous: update.hasPrevious ? update.previous : nil,
          next: update.hasNext ? update.next : nil, heading: heading,
          cause: update.hasCause
            ? FocusCause(sender: update.cause.sender, sequence: update.cause.seq) : nil))
    case .movementFailed(let heading):
      guard let heading = FocusHeading(wire: heading) else { return nil }
      self = .movementFailed(heading)
    case .highlighted(let id): self = .highlighted(id)
    case .activated(let id): self = .activated(id)
    case .selectionChanged(let change):
      self = .selectionChanged(id: change.id, selected: change.selected)
    case .scrolled(let offset):
      self = .scrolled(group: offset.group, offset: Point(x: offset.x, y: offset.y))
    case .focusRequestDenied(let denial):
      guard let reason = FocusRequestError.Reason(wire: denial.reason) else { return nil }
      self = .focusRequestDenied(
        FocusRequestError(reason, target: denial.target, message: denial.message))
    case .textChanged(let change): self = .textChanged(id: change.id, value: change.value)
    case .back: self = .back
    case .home: self = .home
    case .playPause(let id): self = .playPause(id.isEmpty ? nil : id)
    case .contextMenu(let id): self = .contextMenu(id)
    case .doubleTap(let key):
      guard let button = RemoteButton(wire: key) else { return nil }
      self = .doubleTap(button)
    case .itemsInView(let wanted):
      guard let range = wanted.range else { return nil }
      self = .itemsInView(group: wanted.group, range: range)
    case .layoutRejected, nil: return nil
    }
  }

  /// A short machine-readable name, for the text edges (headless JSON lines, the web page):
  /// "bump", "activated:<id>", "back", …; nil for effects screens do not report.
  public var eventName: String? {
    switch self {
    case .focusChanged(let context): "focus:\(context.next ?? "none")"
    case .movementFailed: "bump"
    case .highlighted(let id): "highlighted:\(id)"
    case .activated(let id): "activated:\(id)"
    case .selectionChanged(let id, let selected): "\(selected ? "selected" : "deselected"):\(id)"
    case .scrolled(let group, _): "scrolled:\(group)"
    case .focusRequestDenied: "focusDenied"
    case .layoutRejected, .textRejected: nil
    case .textChanged(let id, _): "text:\(id)"
    case .back: "back"
    case .home: "home"
    case .playPause(let id): id.map { "playPause:\($0)" } ?? "playPause"
    case .contextMenu(let id): "contextMenu:\(id)"
    case .doubleTap(let button): "doubleTap:\(button.name)"
    case .itemsInView(let group, let range):
      "itemsInView:\(group)#\(range.lowerBound)..<\(range.upperBound)"
    }
  }
}

extension FocusHeading {
  /// The engine heading of a wire heading; nil if unspecified or unknown.
  public init?(wire: Tenfoot_V1_Heading) {
    switch wire {
    case .up: self = .up
    case .down: self = .down
    case .left: self = .left
    case .right: self = .right
    case .next: self = .next
    case .previous: self = .previous
    case .programmatic: self = .programmatic
    case .recovery: self = .recovery
    case .initial: self = .initial
    case .pointer: self = .pointer
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension FocusRequestError.Reason {
  /// The engine reason of a wire denial reason; nil if unspecified or unknown.
  public init?(wire: Tenfoot_V1_FocusDenialReason) {
    switch wire {
    case .unknown: self = .unknown
    case .unavailable: self = .unavailable
    case .outsideTrappingGroup: self = .outsideTrappingGroup
    case .ambiguous: self = .ambiguous
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }
}

extension Tenfoot_V1_ItemsInView {
  /// The wire form of a virtual group's items asked for.
  public init(group: String, range: Range<Int>) {
    self.init()
    self.group = group
    start = UInt64(clamping: range.lowerBound)
    end = UInt64(clamping: range.upperBound)
  }

  /// The indices asked for; nil when the range is empty or backwards (a peer's mistake).
  public var range: Range<Int>? {
    let low = Int(clamping: start)
    let high = Int(clamping: end)
    return low < high ? low..<high : nil
  }
}
