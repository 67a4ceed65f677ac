extension Endpoints {
  /// The endpoints of a comma-separated list (`tcp://a:7700,tcp://b:7700`): the brokers of a
  /// zone, of which one is active. A client connects to all of them; only the active broker
  /// has bound its endpoints, so only its connections come up. Empty items are dropped.
  public static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
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
