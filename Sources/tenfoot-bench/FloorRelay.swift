import Foundation
import ZeroMQ

/// The floor: the same two hops as TenFoot's input path with bare ZeroMQ sockets and no TenFoot
/// logic. A ROUTER takes each request and, like the broker, first publishes one `[topic,
/// publication]` message on a PUB and then replies with a frame of the reply's size. No
/// decoding, no engine, no allocation per message beyond libzmq's own.
struct FloorRelay {
  let control: String
  let state: String
  let replyBytes: Int
  let topic: String
  let publicationBytes: Int
  /// With a secret key, both sockets are CURVE servers (no ZAP handler: any client gets in).
  var curveSecretKey: String? = nil
  /// With a directory, the durable floor: before publishing and replying to every other
  /// request (the press of each press/release pair, which is what the broker commits), one
  /// WAL frame is written to a file there and `fdatasync`ed (``WALFrameProbe``), as a
  /// group commit of one change does at the least.
  var walDirectory: String? = nil

  /// Binds, prints `floor-relay ready control=… state=…`, and relays until killed.
  func run() throws {
    let context = try Context()
    let router = try Socket(context, .router)
    let publisher = try Socket(context, .publisher)
    try router.setSendHighWaterMark(10_000)
    try router.setReceiveHighWaterMark(10_000)
    try publisher.setSendHighWaterMark(10_000)
    if let curveSecretKey {
      try router.setCurveServer(secretKey: curveSecretKey)
      try publisher.setCurveServer(secretKey: curveSecretKey)
    }
    try router.bind(control)
    try publisher.bind(state)
    let controlEndpoint = control.hasPrefix("tcp://") ? try router.lastEndpoint : control
    let stateEndpoint = state.hasPrefix("tcp://") ? try publisher.lastEndpoint : state
    FileHandle.standardOutput.write(
      Data("floor-relay ready control=\(controlEndpoint) state=\(stateEndpoint)\n".utf8))
    let topicBytes = Array(topic.utf8)
    let publication = [UInt8](repeating: 0x2A, count: publicationBytes)
    let reply = [UInt8](repeating: 0x2A, count: replyBytes)
    var wal = try walDirectory.map {
      try WALFrameProbe(directory: $0, name: "floor-wal", frames: 1_000, allocate: true)
    }
    var requests = 0
    while true {
      guard let frames = try router.receiveMultipart(), let peer = frames.first else { continue }
      if requests % 2 == 0 { _ = try wal?.sample() }
      requests += 1
      try publisher.send(frames: [topicBytes, publication], dontWait: true)
      try router.send(frames: [peer, reply], dontWait: true)
    }
  }
}
