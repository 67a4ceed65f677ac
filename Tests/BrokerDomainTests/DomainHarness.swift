import BrokerDomain
import FocusEngine
import Testing

/// Layouts and request helpers for the domain's tests: no sockets, no wire, no clock.
enum Grid {
  /// `rows` × `columns` items `r<row>c<column>`, 300×200 with gaps, focus on r0c0.
  static func layout(rows: Int, columns: Int) -> Layout {
    var items: [Item] = []
    for row in 0..<rows {
      for column in 0..<columns {
        items.append(
          Item(
            id: "r\(row)c\(column)", title: "Row \(row) Col \(column)",
            frame: Rect(
              x: 100 + Double(column) * 340, y: 100 + Double(row) * 240, width: 300, height: 200)))
      }
    }
    return Layout(canvas: .tv, items: items, initialFocus: "r0c0")
  }

  /// Two rows as groups `top` and `bottom`; `bottom` traps focus when `trap` is set.
  static func twoRows(trap: Bool = false, remember: Bool = false) -> Layout {
    var layout = Self.layout(rows: 2, columns: 3)
    layout.groups = [
      Group(id: "top", items: ["r0c0", "r0c1", "r0c2"], remembersLastFocused: remember),
      Group(
        id: "bottom", items: ["r1c0", "r1c1", "r1c2"], trapsFocus: trap,
        remembersLastFocused: remember),
    ]
    return layout
  }
}

extension BrokerInstant {
  /// `value` seconds after the origin.
  static func at(seconds value: Int64) -> BrokerInstant { .origin + .seconds(value) }
}

/// A domain with a clock the test moves by hand.
struct Harness {
  var domain: BrokerDomain
  var now = BrokerInstant.at(seconds: 1)
  var seq: UInt64 = 0

  init(records: [String: SessionRecord]? = nil) {
    domain = BrokerDomain(epoch: 7, name: "test", records: records)
  }

  /// Handles `request` now.
  mutating func send(_ request: BrokerRequest) -> BrokerDomain.Outcome {
    domain.handle(request, at: now)
  }

  /// The next cause (sender "t", rising sequence numbers).
  mutating func cause() -> FocusCause {
    seq += 1
    return FocusCause(sender: "t", sequence: seq)
  }

  /// Registers `layout` as screen `screen`; returns the outcome.
  @discardableResult
  mutating func register(_ layout: Layout, screen: String = "main") -> BrokerDomain.Outcome {
    send(.register(screen: screen, layout: layout))
  }

  /// A button press (down) from `remote` at `time` nanoseconds on the remote's clock.
  mutating func key(
    _ button: RemoteButton, _ phase: ButtonPhase = .down, screen: String? = "main",
    remote: String = "remote", time: UInt64 = 0
  ) -> BrokerDomain.Outcome {
    let cause = cause()
    return send(
      .input(.button(button, phase, at: time), screen: screen, remote: remote, cause: cause))
  }
}

extension BrokerDomain.Outcome {
  /// The acknowledgement, or nil for any other reply.
  var ack: Acknowledgement? {
    if case .ack(let ack) = reply { return ack }
    return nil
  }

  /// The refusal, or nil for any other reply.
  var error: BrokerError? {
    if case .error(let error) = reply { return error }
    return nil
  }

  /// The publications among the effects.
  var publications: [Publication] {
    effects.compactMap { if case .publish(let publication) = $0 { publication } else { nil } }
  }

  /// The records to persist among the effects.
  var records: [SessionRecord] {
    effects.compactMap { if case .persist(let record) = $0 { record } else { nil } }
  }
}

/// Checks a whole outcome, TCA `TestStore` style: the reply and every effect, in order, so
/// nothing changes unnoticed. On a mismatch it names the part that differs.
func expectOutcome(
  _ actual: BrokerDomain.Outcome, _ expected: BrokerDomain.Outcome,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard actual != expected else { return }
  #expect(actual.reply == expected.reply, "the reply differs", sourceLocation: sourceLocation)
  #expect(
    actual.effects.count == expected.effects.count,
    "\(actual.effects.count) effects, expected \(expected.effects.count)",
    sourceLocation: sourceLocation)
  for (index, (got, wanted)) in zip(actual.effects, expected.effects).enumerated() {
    #expect(got == wanted, "effect \(index) differs", sourceLocation: sourceLocation)
  }
  #expect(
    actual.recordedPress == expected.recordedPress, "the press to record differs",
    sourceLocation: sourceLocation)
  // Whatever else differs (a field added later) still fails.
  #expect(actual == expected, sourceLocation: sourceLocation)
}

extension Harness {
  /// Sends `request` and checks its whole outcome against `expected`; with `state`, also the
  /// whole domain after it against `state` (a reference domain the test built, or the domain
  /// before for a request that must change nothing).
  @discardableResult
  mutating func expect(
    _ request: BrokerRequest, _ expected: BrokerDomain.Outcome, state: BrokerDomain? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> BrokerDomain.Outcome {
    let outcome = send(request)
    expectOutcome(outcome, expected, sourceLocation: sourceLocation)
    if let state {
      #expect(domain == state, "the domain's state differs", sourceLocation: sourceLocation)
    }
    return outcome
  }

  /// Handles `request` carrying press id `press` now, from a local peer.
  mutating func send(_ request: BrokerRequest, press: Press) -> BrokerDomain.Outcome {
    domain.handle(request, press: press, from: .local, owners: [:], at: now)
  }

  /// A button input request (not sent), with the next cause.
  mutating func keyRequest(
    _ button: RemoteButton, _ phase: ButtonPhase = .down, screen: String? = "main",
    time: UInt64 = 0
  ) -> BrokerRequest {
    .input(.button(button, phase, at: time), screen: screen, remote: "remote", cause: cause())
  }
}
