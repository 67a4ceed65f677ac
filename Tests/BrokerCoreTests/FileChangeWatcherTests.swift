import Foundation
import TenFootSecurity
import TestSupport
import Testing
import ZeroMQ

@testable import BrokerCore

@Suite("The allow-list watcher (inotify)")
struct FileChangeWatcherTests {
  /// Whether the watcher's descriptor becomes readable within `milliseconds`.
  func readable(_ watcher: FileChangeWatcher, within milliseconds: Int) throws -> Bool {
    var poller = Poller()
    let index = poller.add(fileDescriptor: watcher.fileDescriptor)
    try poller.poll(timeout: .milliseconds(milliseconds))
    return poller.isReadable(index)
  }

  @Test("an atomic replace of the file is seen; other files in the directory are not")
  func seesReplaceOnly() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path + "/allow-list.json"
    try AtomicFile.write(Array("{}".utf8), to: path)
    let watcher = try #require(FileChangeWatcher(path: path))
    #expect(try !readable(watcher, within: 0))

    try AtomicFile.write(Array("{}".utf8), to: directory.path + "/sessions.json")
    #expect(try readable(watcher, within: 5000), "the directory's events wake the loop")
    #expect(!watcher.drain(), "another file's change is not the allow-list's")

    try AtomicFile.write(Array("{ }".utf8), to: path)
    #expect(try readable(watcher, within: 5000))
    #expect(watcher.drain())
    #expect(try !readable(watcher, within: 0), "drained")
  }
}
