import Foundation
import Testing

@testable import TenFootCLI

@Suite("CLI errors: the typed cause kept, the sentence written once")
struct CLIErrorTests {
  private struct Refusal: Error, CustomStringConvertible, Equatable {
    var description: String { "the broker refused: forbidden" }
  }

  @Test("a typed cause is kept and says its own sentence, after the context if given")
  func typedCause() throws {
    let bare = CLIError(Refusal())
    #expect(bare.description == "the broker refused: forbidden")
    #expect(bare.cause as? Refusal == Refusal())
    let said = CLIError("cannot migrate the store", cause: Refusal())
    #expect(said.description == "cannot migrate the store: the broker refused: forbidden")
    #expect(said.cause as? Refusal == Refusal())
  }

  @Test("a Foundation error says its sentence, not its domain, code and user info")
  func foundationCause() throws {
    let missing = "/nonexistent-tenfoot/script.txt"
    do {
      _ = try String(contentsOfFile: missing, encoding: .utf8)
      Issue.record("\(missing) was read")
    } catch {
      let reported = CLIError("cannot read \(missing)", cause: error)
      #expect(reported.description.hasPrefix("cannot read \(missing): "))
      #expect(!reported.description.contains("NSCocoaErrorDomain"), "\(reported.description)")
      #expect(reported.cause is CocoaError)
    }
  }

  @Test("a sentence of the command's own has no cause")
  func ownWords() {
    let own = CLIError("not paired: no correct PIN was entered")
    #expect(own.description == "not paired: no correct PIN was entered")
    #expect(own.cause == nil)
  }
}
