extension Endpoints {
  /// The endpoints of a comma-separated list (`tcp://a:7700,tcp://b:7700`): the brokers of a
  /// zone, of which one is active. A client connects to all of them; only the active broker
  /// has bound its endpoints, so only its connections come up. Empty items are dropped.
  public static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  /// The ZMTP heartbeat a client sets on its sockets to `text` (milliseconds): a PING every
  /// `interval`, the connection dropped when nothing came back within `timeout`. One broker:
  /// 1 s and 5 s. A zone's brokers: 500 ms and 1.5 s, so a connection to a broker whose host
  /// was cut off is dropped within about 2 s, the time the zone's standby takes to take over
  /// (its 2 s lease); until then a DEALER connected to both brokers would send every other
  /// request to the lost one.
  public static func heartbeat(for text: String) -> (interval: Int32, timeout: Int32) {
    list(text).count > 1 ? (500, 1500) : (1000, 5000)
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return String(text)
  }
}
