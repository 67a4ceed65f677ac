import TenFootProtocol

/// The remote's script format: one command per line — a key (`right`, or `press right`),
/// `hold right 2s`, `double select`, `swipe left fast`, `drag 0.2,0`, `click`,
/// `type "star"`; blank lines and `#` comments are ignored.
public enum RemoteScript {
  /// The actions of a whole script, or an error naming the first bad line.
  public static func parse(_ text: String) throws(RemoteError) -> [RemoteAction] {
    var keys: [RemoteAction] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if let key = try parseLine(line, number: index + 1) { keys.append(key) }
    }
    return keys
  }

  /// The action on one line (numbered from 1, for errors), or nil for a blank or comment
  /// line. Used directly when a script is streamed, so each action runs as its line arrives.
  public static func parseLine(_ rawLine: Substring, number: Int) throws(RemoteError)
    -> RemoteAction?
  {
    var line = rawLine
    // A comment starts at "#", except inside the quoted text of a type command.
    if !line.contains("\""), let hash = line.firstIndex(of: "#") { line = line[..<hash] }
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      .map(String.init)
    if words.isEmpty { return nil }
    do {
      return try RemoteAction.parse(words)
    } catch {
      throw .scriptLine(number, error)
    }
  }
}
