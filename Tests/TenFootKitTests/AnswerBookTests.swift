import Testing

@testable import TenFootKit

/// Which event an async app's commands answer: the whole book after each step.
@Suite("AnswerBook: commands answer the update being handled")
struct AnswerBookTests {
  @Test("a command while an activation is handled answers it; closing it then asks nothing")
  func commandAnswersActivation() {
    var book = AnswerBook()
    #expect(book.claim() == nil, "before the first update a command answers no frame")
    book.begin(seq: 7, awaits: true)
    #expect(book.claim() == 7)
    #expect(book.claim() == 7, "a second command answers the same frame")
    #expect(book.current == AnswerBook.Current(seq: 7, awaits: true, answered: true))
    #expect(book.close() == nil, "answered: nothing left to send")
    #expect(book == AnswerBook())
  }

  @Test("an activation the loop sent nothing for is answered with nothing when it moves on")
  func unansweredActivation() {
    var book = AnswerBook()
    book.begin(seq: 9, awaits: true)
    #expect(book.close() == 9)
    #expect(book.current == nil)
    #expect(book.claim() == nil, "between updates a command answers no frame")
  }

  @Test("an event the broker does not hold for needs no answer")
  func notAwaited() {
    var book = AnswerBook()
    book.begin(seq: 3, awaits: false)
    #expect(book.close() == nil)
    book.begin(seq: 4, awaits: false)
    #expect(book.claim() == 4)
    #expect(book.close() == nil)
  }
}
