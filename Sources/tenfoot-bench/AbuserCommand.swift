import ArgumentParser
import Foundation
import TenFootProtocol
import ZeroMQ

/// `tenfoot-bench abuser`: an allow-listed peer that pipelines registrations of the largest
/// layout (100,000 items) at a CURVE broker as fast as its socket takes them, until `count`
/// are sent and its standard input closes (started by the abuse benchmark). Each goes in parts
/// of the largest size the broker reads (`--message-size`, its `--max-message-kibibytes`), so
/// libzmq decrypts messages of that size back to back. Prints `abuser started` after its
/// first send and at the end `abuser done sent=… answered=… rate_limited=…` (registrations
/// sent, replies, RATE_LIMITED replies). Its CURVE keys come in the environment
/// (`TENFOOT_ABUSER_PUBLIC`, `TENFOOT_ABUSER_SECRET`, `TENFOOT_ABUSER_BROKER`).
struct AbuserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "abuser",
    abstract: "Pipeline huge registrations at a broker (started by the benchmark).")

  @Option var control: String
  @Option var count = 200
  /// The largest message the broker reads, in bytes: each part is just under it.
  @Option var messageSize = Int(WireProtocol.defaultMaxMessageSize)

  func run() throws {
    let stopped = StopOnEndOfInput()
    let environment = ProcessInfo.processInfo.environment
    guard let publicKey = environment["TENFOOT_ABUSER_PUBLIC"],
      let secretKey = environment["TENFOOT_ABUSER_SECRET"],
      let brokerKey = environment["TENFOOT_ABUSER_BROKER"]
    else { throw ValidationError("the abuser's keys are missing from the environment") }
    var request = Tenfoot_V1_RegisterScreen()
    request.screenID = "abuse"
    request.layout = BenchPeers.layout(rows: 100, columns: 1000)
    // Room for a part's own envelope (tags, sender, seq, index, count: well under 128 bytes).
    guard
      let parts = MessageParts.frames(
        of: Tenfoot_V1_Envelope(
          sender: "abuser", seq: 1, sentAtNanoseconds: 0, body: .registerScreen(request)),
        partSize: messageSize - 128)
    else { throw ValidationError("--message-size is too small for the layout's parts") }
    let context = try Context()
    let dealer = try Socket(context, .dealer)
    try dealer.setCurveClient(
      serverKey: brokerKey, keyPair: CurveKeyPair(publicKey: publicKey, secretKey: secretKey))
    try dealer.setSendHighWaterMark(Int32(clamping: count * parts.count))
    try dealer.connect(control)
    var (sent, answered, rateLimited) = (0, 0, 0)
    var part = 0
    while !stopped.isSet {
      if sent < count, try dealer.send(parts[part], dontWait: true) {
        part += 1
        if part == parts.count {
          (sent, part) = (sent + 1, 0)
          if sent == 1 {
            let bytes = parts.reduce(0) { $0 + $1.count }
            Table.line("abuser started bytes=\(bytes) parts=\(parts.count)")
          }
        }
        continue
      }
      guard try dealer.awaitInput(until: ContinuousClock.now + .milliseconds(20)) else { continue }
      while let reply = try dealer.receive(dontWait: true) {
        answered += 1
        if case .error(let error) = try? Tenfoot_V1_Envelope.decode(reply).body,
          error.code == .rateLimited
        {
          rateLimited += 1
        }
      }
    }
    Table.line("abuser done sent=\(sent) answered=\(answered) rate_limited=\(rateLimited)")
    dealer.close()
    context.shutdown()
  }
}
