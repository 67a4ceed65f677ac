import Logging
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

/// A CURVE broker over ipc in a fresh directory whose allow-list file holds a remote's key
/// ("spy", the one the revoke tests cut) and a screen's ("tv"). The set-up the revoke tests
/// share; each may put its own allow-list source in front of the file.
struct SpyBroker {
  let directory: TemporaryDirectory
  let context: Context
  let brokerKeys: CurveKeyPair
  let spyKeys: CurveKeyPair
  let screenKeys: CurveKeyPair
  let spy: AllowList.Entry
  /// The allow-list file, and the operator's store of it (`tenfoot-broker remotes …`).
  let allowList: String
  let operatorStore: AllowListStore
  let control: String
  let state: String
  let broker: BrokerThread

  /// Starts the broker; `source`, given the file's path and the spy's entry, is its allow-list
  /// (nil: the file).
  init(source: (@Sendable (String, AllowList.Entry) throws -> any AllowListSource)? = nil) throws {
    directory = try TemporaryDirectory()
    context = try Context()
    brokerKeys = try CurveKeyPair.generate()
    spyKeys = try CurveKeyPair.generate()
    screenKeys = try CurveKeyPair.generate()
    allowList = directory.path + "/allow-list.json"
    operatorStore = try AllowListStore(path: allowList)
    let spy = AllowList.Entry(publicKey: spyKeys.publicKey, name: "spy", role: .remote, added: 0)
    self.spy = spy
    let screen = AllowList.Entry(
      publicKey: screenKeys.publicKey, name: "tv", role: .screen, added: 0)
    try operatorStore.modify {
      $0.allow(spy)
      $0.allow(screen)
    }
    control = "ipc://\(directory.path)/control"
    state = "ipc://\(directory.path)/state"
    var configuration = BrokerConfiguration(controlEndpoints: [control], stateEndpoints: [state])
    var security = BrokerSecurity(
      keyPair: brokerKeys, allowListPath: allowList,
      pairingEndpoints: ["ipc://\(directory.path)/pairing"])
    if let source {
      let path = allowList
      security.allowList = { try source(path, spy) }
    }
    configuration.security = security
    broker = try BrokerThread(
      configuration: configuration, context: context, logger: Logger(label: "test"))
  }

  /// A CURVE subscriber to everything on the state socket, with `keys`.
  func subscriber(_ keys: CurveKeyPair) throws -> RevokeCutTests.Subscriber {
    try RevokeCutTests.Subscriber(
      context, keys: keys, brokerKey: brokerKeys.publicKey, endpoint: state)
  }

  /// The screen key's control connection (the caller closes it).
  func screenDealer() throws -> Socket {
    let dealer = try Socket(context, .dealer)
    try dealer.setCurveClient(serverKey: brokerKeys.publicKey, keyPair: screenKeys)
    try dealer.connect(control)
    return dealer
  }
}
