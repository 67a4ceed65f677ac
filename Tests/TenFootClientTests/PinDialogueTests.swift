import Testing

@testable import TenFootClient

/// The PIN dialogue of `tenfoot-remote pair`, driven in memory: scripted input lines, the
/// messages it shows, the waits it asks for and the PINs it sends the broker.
@Suite("PIN dialogue")
struct PinDialogueTests {
  /// A scripted person and broker; records everything the dialogue did.
  final class Script {
    var lines: [String]
    var answers: [PairingClient.Attempt]
    var said: [String] = []
    var waits: [Duration] = []
    var sent: [String] = []

    init(lines: [String], answers: [PairingClient.Attempt]) {
      self.lines = lines
      self.answers = answers
    }

    var dialogue: PinDialogue {
      PinDialogue(
        readLine: { self.lines.isEmpty ? nil : self.lines.removeFirst() },
        say: { self.said.append($0) }, wait: { self.waits.append($0) })
    }

    func run(digits: Int = 4) throws -> String? {
      try dialogue.run(digits: digits, brokerID: "0a1b2c3d") { pin throws(PairingError) in
        sent.append(pin)
        guard !answers.isEmpty else { throw PairingError.unexpectedReply }
        return answers.removeFirst()
      }
    }
  }

  @Test("a correct PIN pairs at once; surrounding spaces are ignored")
  func pairs() throws {
    let script = Script(lines: ["  1234 "], answers: [.paired(id: "9f00aa11")])
    #expect(try script.run() == "9f00aa11")
    #expect(script.sent == ["1234"])
    #expect(
      script.said == ["Enter the 4-digit PIN shown on the screen (broker key 0a1b2c3d):"])
    #expect(script.waits.isEmpty)
  }

  @Test(
    "a line that is not the right number of digits is refused here and never sent",
    arguments: ["", "123", "12345", "12a4", "١٢٣٤", "12 4"])
  func malformed(line: String) throws {
    let script = Script(lines: [line, "4321"], answers: [.paired(id: "id")])
    #expect(try script.run() == "id")
    #expect(script.sent == ["4321"], "only the well-formed PIN reaches the broker")
    #expect(script.said.dropFirst().first == "the PIN is 4 digits: try again")
  }

  @Test("a refused PIN shows the broker's message, waits its back-off, and asks again")
  func refusedThenPaired() throws {
    let script = Script(
      lines: ["1111", "2222", "3333"],
      answers: [
        .refused(message: "wrong PIN", retryAfter: .seconds(1)),
        .refused(message: "wrong PIN", retryAfter: .zero),
        .paired(id: "abcd0123"),
      ])
    #expect(try script.run() == "abcd0123")
    #expect(script.sent == ["1111", "2222", "3333"])
    #expect(script.waits == [.milliseconds(1000)], "no wait when the broker asks for none")
    #expect(
      Array(script.said.dropFirst()) == [
        "wrong PIN", "Enter the PIN again:", "wrong PIN", "Enter the PIN again:",
      ])
  }

  @Test("the end of input before a correct PIN is no pairing, not an error")
  func inputEnds() throws {
    let script = Script(
      lines: ["1111"], answers: [.refused(message: "wrong PIN", retryAfter: .seconds(2))])
    #expect(try script.run() == nil)
    #expect(script.sent == ["1111"])
    #expect(script.waits == [.milliseconds(2000)])
  }

  @Test("a broker failure ends the dialogue with that error")
  func brokerFailure() throws {
    let script = Script(lines: ["1234", "5678"], answers: [])
    #expect(throws: PairingError.self) { try script.run() }
    #expect(script.sent == ["1234"], "nothing more is sent after the failure")
  }

  @Test("the digit count comes from the broker's challenge")
  func sixDigits() throws {
    let script = Script(lines: ["1234", "123456"], answers: [.paired(id: "id")])
    #expect(try script.run(digits: 6) == "id")
    #expect(script.sent == ["123456"])
    #expect(script.said.first?.hasPrefix("Enter the 6-digit PIN") == true)
  }
}
