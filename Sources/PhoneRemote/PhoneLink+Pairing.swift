import ScreenCore
import TenFootClient
import TenFootProtocol
import ZeroMQ

/// Pairing a phone's fresh key, as loop events: a round request, the broker's challenge, the
/// PIN from the broker's prompt to this screen (whichever of the two comes first), the proof
/// and the broker's answer.
extension PhoneLink {
  /// Makes the session's key pair and asks the broker for a pairing round.
  func start() {
    do {
      let keyPair = try CurveKeyPair.generate()
      self.keyPair = keyPair
      let messages = try PairingMessages(publicKey: keyPair.publicKey, name: session.name)
      let channel: Channel
      do {
        channel = try open(settings.pairingEndpoint, sender: "pair", curve: nil)
      } catch {
        throw PairingError.cannotConnect(endpoint: settings.pairingEndpoint, cause: error)
      }
      pairing = channel
      let (body, remoteNonce) = messages.roundRequest(next: false)
      channel.requests.send(body, timeout: settings.requestTimeout) { [unowned self] result in
        challenged(result, remoteNonce: remoteNonce, messages: messages)
      }
    } catch {
      end(with: error)
    }
  }

  private func challenged(
    _ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>, remoteNonce: [UInt8],
    messages: PairingMessages
  ) {
    do {
      let challenge = try PairingMessages.challenge(
        from: try reply(result), remoteNonce: remoteNonce)
      guard challenge.brokerKeyText == settings.brokerKey else {
        throw PhoneError.brokerKeyDiffers(presented: challenge.brokerKeyText)
      }
      let deadline = loop.schedule(after: Self.promptTimeout) { [unowned self] in
        end(with: PhoneError.noPrompt)
      }
      round = (challenge, deadline)
      self.messages = messages
      promptArrived(prompt())
    } catch {
      end(with: error)
    }
  }

  /// The broker's pairing prompt to this screen changed: if it is this phone's and its round
  /// waits, sends the proof of its PIN.
  func promptArrived(_ overlay: PairingOverlay?) {
    guard let overlay, overlay.remoteName == session.name, let round, let messages else {
      return
    }
    self.round = nil
    loop.cancel(round.deadline)
    do {
      let (body, brokerTag) = try messages.proof(pin: overlay.pin, challenge: round.challenge)
      pairing?.requests.send(body, timeout: settings.requestTimeout) { [unowned self] result in
        proved(result, brokerTag: brokerTag)
      }
    } catch {
      end(with: error)
    }
  }

  private func proved(
    _ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>, brokerTag: [UInt8]
  ) {
    do {
      switch try PairingMessages.attempt(from: try reply(result), brokerTag: brokerTag) {
      case .paired(let id):
        guard let keyPair else { return }
        try paired(id, keyPair: keyPair)
      case .refused(let message, _):
        throw PhoneError.pairingRefused(message)
      }
    } catch {
      end(with: error)
    }
  }

  /// A pairing request's reply, or its failure as a pairing error.
  private func reply(_ result: Result<Tenfoot_V1_Envelope.OneOf_Body, ControlError>)
    throws(PairingError) -> Tenfoot_V1_Envelope.OneOf_Body
  {
    switch result {
    case .success(let body): body
    case .failure(let error): throw .request(error)
    }
  }
}
