import TenFootProtocol

/// The remote's script format: one key per line (`right`, or `press right`); blank lines and
/// `#` comments are ignored.
public enum RemoteScript {
  /// The keys of a script, or an error naming the first bad line.
  public static func parse(_ text: String) throws(RemoteError) -> [Tenfoot_V1_Key] {
    var keys: [Tenfoot_V1_Key] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      var line = Substring(rawLine)
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      if words.isEmpty { continue }
      var name = words[0]
      if name == "press", words.count == 2 {
        name = words[1]
      } else if words.count != 1 {
        throw RemoteError("line \(index + 1): expected one key, got \"\(line)\"")
      }
      guard let key = Tenfoot_V1_Key(name: String(name)) else {
        throw RemoteError(
          "line \(index + 1): unknown key \"\(name)\" (keys: \(Tenfoot_V1_Key.canonicalNames.joined(separator: ", ")))"
        )
      }
      keys.append(key)
    }
    return keys
  }
}
