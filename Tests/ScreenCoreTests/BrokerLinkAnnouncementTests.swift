import FocusEngine
import ScreenCore
import Testing

/// The broker link on the screen's announcement channel: the words ``BrokerLink/announcement``
/// gives a lost link and its return (the headless lines and speech say them: HeadlessLinkTests,
/// SpokenLinkTests).
@Suite("The broker link announced")
struct BrokerLinkAnnouncementTests {
  static let lost = "The broker is unreachable. Input cannot work until it is back"
  static let back = "The broker is back. Input works again"

  @Test("the words: what happened, then what it means for input; a lost link interrupts")
  func words() {
    #expect(BrokerLink.lost.announcement.text == Self.lost)
    #expect(BrokerLink.lost.announcement.interrupt)
    #expect(BrokerLink.up.announcement.text == Self.back)
    #expect(!BrokerLink.up.announcement.interrupt)
  }
}
