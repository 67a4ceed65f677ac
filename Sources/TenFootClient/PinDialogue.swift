/// The remote's side of the PIN dialogue, apart from any terminal: asks for the PIN until the
/// broker accepts one or the person's input ends. A line that is not `digits` digits is
/// refused here (the broker never sees it); a PIN the broker refuses is followed by the
/// back-off it asked for, then a new prompt.
public struct PinDialogue {
  /// The next line the person typed (without its newline), or nil at the end of input.
  public var readLine: () -> String?
  /// Shows a prompt or a message to the person (a whole line, without its newline).
  public var say: (String) -> Void
  /// Waits before the next attempt: the back-off a refusal asked for.
  public var wait: (Duration) -> Void

  /// A dialogue over these three.
  public init(
    readLine: @escaping () -> String?, say: @escaping (String) -> Void,
    wait: @escaping (Duration) -> Void
  ) {
    self.readLine = readLine
    self.say = say
    self.wait = wait
  }

  /// Asks for a `digits`-digit PIN (`brokerID` is the broker key's short id, for the person to
  /// compare with the screen's) and passes each well-formed one to `attempt`. Returns the
  /// allow-list id the broker gave, or nil when the input ended before a PIN was accepted.
  public func run(
    digits: Int, brokerID: String,
    attempt: (String) throws(PairingError) -> PairingClient.Attempt
  ) throws(PairingError) -> String? {
    say("Enter the \(digits)-digit PIN shown on the screen (broker key \(brokerID)):")
    while let line = readLine() {
      let pin = line.trimmingSpaces
      guard pin.count == digits, pin.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
        say("the PIN is \(digits) digits: try again")
        continue
      }
      switch try attempt(pin) {
      case .paired(let id):
        return id
      case .refused(let message, let retryAfter):
        say(message)
        if retryAfter > .zero { wait(retryAfter) }
        say("Enter the PIN again:")
      }
    }
    return nil
  }
}

extension String {
  /// The text without leading and trailing spaces and tabs (what a person adds around a PIN).
  fileprivate var trimmingSpaces: String {
    let isSpace = { (character: Character) in character == " " || character == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
