extension Endpoints {
  /// The endpoints of a comma-separated list (`tcp://a:7700,tcp://b:7700`): the brokers of a
  /// zone, of which one is active. A client connects to all of them; only the active broker
  /// has bound its endpoints, so only its connections come up. Empty items are dropped.
  public static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  /// The ZMTP heartbeat a client sets on its sockets to `text` (milliseconds): a PING every
  /// `interval`, the connection dropped when nothing came back within `timeout`. One broker:
  /// 1 s and 5 s. A zone's brokers: 150 ms and 400 ms, so a connection to a broker whose host
  /// was cut off is dropped 0.4–0.55 s after the cut, before the zone's standby takes over
  /// (its 0.6 s lease, `ZoneLeadership.defaultLease`); until then a DEALER connected to both
  /// brokers would send every other request to the lost one. Measured with a host cut off, the
  /// next press was shown 0.70–0.98 s after the cut with 150 / 400 ms, 0.71–1.16 s with
  /// 200 / 600 ms. The cost: about seven CURVE PINGs a second per connection to the active
  /// broker.
  public static func heartbeat(for text: String) -> (interval: Int32, timeout: Int32) {
    list(text).count > 1 ? (150, 400) : (1000, 5000)
  }

  /// How long a screen waits for a control reply before it gives up on that request. One
  /// broker: 1 s. A zone's brokers: 400 ms. Right after a takeover a request (the screen's
  /// own heartbeat, say) may have gone to the lost broker's connection before the heartbeat
  /// dropped it, and the screen's loop waits for that reply; the retry reaches the new broker.
  /// Measured with a host cut off (200 / 600 ms heartbeat): the screen showed the new broker's
  /// state about 0.3 s after it was active with 400 ms, and 1.0 s after in 3 runs of 4 with 1 s.
  public static func requestTimeout(for text: String) -> Duration {
    list(text).count > 1 ? .milliseconds(400) : .seconds(1)
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
