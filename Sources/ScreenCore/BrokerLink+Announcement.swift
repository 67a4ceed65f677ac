import FocusEngine

extension BrokerLink {
  /// What the screen's announcement channel says when the link changes to this state (the
  /// web page's live region, a headless link line's `announcement`, speech with `--speak`):
  /// that the broker is unreachable, then that it is back. Said once per change, never
  /// repeated while the state lasts. The state itself is the part's value; what it means for
  /// the person holding the remote is the hint, spoken after a pause. Losing the link
  /// interrupts (the last focus announcement is stale); its return does not.
  public var announcement: Announcement {
    switch self {
    case .lost:
      Announcement(
        parts: [
          AnnouncementPart(.value, "The broker is unreachable"),
          AnnouncementPart(.hint, "Input cannot work until it is back"),
        ], interrupt: true)
    case .up:
      Announcement(
        parts: [
          AnnouncementPart(.value, "The broker is back"),
          AnnouncementPart(.hint, "Input works again"),
        ], interrupt: false)
    }
  }
}
