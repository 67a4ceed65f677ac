import TenFootCLI
import Testing

@Suite("A key option's value may start with a dash")
struct KeyArgumentsTests {
  @Test("--key and --broker-key followed by a dash-led value are joined; nothing else changes")
  func joined() {
    let key = "-=yo/1{e[o*]}coZ03p1..!=@:&sE/[8N)-G9M9)"
    #expect(
      KeyArguments.joined(["remotes", "add", "--key", key, "--name", "tv"])
        == ["remotes", "add", "--key=\(key)", "--name", "tv"])
    #expect(
      KeyArguments.joined(["press", "right", "--broker-key", key])
        == ["press", "right", "--broker-key=\(key)"])
    // A value that does not start with a dash, another option's value, a key option at the
    // end, and whatever follows `--` stay as they are.
    let plain = ["--key", "abc", "--name", "-x", "--key"]
    #expect(KeyArguments.joined(plain) == plain)
    #expect(KeyArguments.joined(["--", "--key", key]) == ["--", "--key", key])
  }
}
