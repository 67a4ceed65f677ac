import TenFootProtocol

/// The remote's script format: one key per line (`right`, or `press right`); blank lines and
/// `#` comments are ignored.
public enum RemoteScript {
  /// The keys of a whole script, or an error naming the first bad line.
  public static func parse(_ text: String) throws(RemoteError) -> [Tenfoot_V1_Key] {
    var keys: [Tenfoot_V1_Key] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      if let key = try parseLine(line, number: index + 1) { keys.append(key) }
    }
    return keys
  }

  /// The key on one line (numbered from 1, for errors), or nil for a blank or comment line.
  /// Used directly when a script is streamed, so each key is pressed as its line arrives.
  public static func parseLine(_ rawLine: Substring, number: Int) throws(RemoteError)
    -> Tenfoot_V1_Key?
  {
    var line = rawLine
    if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    if words.isEmpty { return nil }
    var name = words[0]
    if name == "press", words.count == 2 {
      name = words[1]
    } else if words.count != 1 {
      throw RemoteError("line \(number): expected one key, got \"\(line)\"")
    }
    guard let key = Tenfoot_V1_Key(name: String(name)) else {
      throw RemoteError(
        "line \(number): unknown key \"\(name)\" (keys: \(Tenfoot_V1_Key.canonicalNames.joined(separator: ", ")))"
      )
    }
    return key
  }
}
