/// Command lines that name a CURVE key after `--key` or `--broker-key`. A Z85 key may start with
/// `-`; the options parse their value unconditionally, but ArgumentParser reads an argument that
/// starts with `-=` as a malformed option before that rule applies ("Invalid option"), so a key
/// that starts with `-=` (one in 7,225) could not be given as `--key KEY`. Joining such a pair
/// into `--key=KEY` before parsing gives the option its value whatever it starts with.
public enum KeyArguments {
  /// The options whose value is a key.
  public static let options: Set<String> = ["--key", "--broker-key"]

  /// `arguments` with each key option followed by a value that starts with `-` joined into
  /// one `--option=value` argument; everything after a `--` is left as it is.
  public static func joined(_ arguments: [String]) -> [String] {
    var joined: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      if argument == "--" {
        joined += arguments[index...]
        break
      }
      let next = arguments.index(after: index)
      if options.contains(argument), next < arguments.endIndex, arguments[next].hasPrefix("-") {
        joined.append("\(argument)=\(arguments[next])")
        index = arguments.index(after: next)
      } else {
        joined.append(argument)
        index = next
      }
    }
    return joined
  }

  /// This process's arguments (without the program's name), joined.
  public static var commandLine: [String] { joined(Array(CommandLine.arguments.dropFirst())) }
}
