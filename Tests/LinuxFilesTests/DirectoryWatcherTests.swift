import Foundation
import LinuxFiles
import TestSupport
import Testing

/// Waits (bounded) until the watcher has reported `count` changes.
private func changes(_ watcher: DirectoryWatcher, count: Int) -> [DirectoryWatcher.Change] {
  var seen: [DirectoryWatcher.Change] = []
  let deadline = Date().addingTimeInterval(10)
  while seen.count < count, Date() < deadline { seen += watcher.wait(milliseconds: 500) }
  return seen
}

@Suite("hot-plug through inotify")
struct DirectoryWatcherTests {
  @Test("udev's by-id symlinks appearing and disappearing are reported by name")
  func byIDLinks() throws {
    let folder = try TemporaryDirectory()
    let byID = folder.path + "/by-id"
    try FileManager.default.createDirectory(atPath: byID, withIntermediateDirectories: false)
    try "".write(toFile: folder.path + "/event7", atomically: false, encoding: .utf8)
    let watcher = try DirectoryWatcher(directory: byID)
    #expect(watcher.drain().isEmpty)

    // Plugged in: udev makes a relative symlink to the node.
    let link = byID + "/usb-Logitech_K400-event-kbd"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../event7")
    #expect(changes(watcher, count: 1) == [.appeared("usb-Logitech_K400-event-kbd")])

    // Unplugged: the link goes.
    try FileManager.default.removeItem(atPath: link)
    #expect(changes(watcher, count: 1) == [.disappeared("usb-Logitech_K400-event-kbd")])

    // An atomic rename into the directory appears too; a rename out disappears.
    let staged = folder.path + "/staged"
    try FileManager.default.createSymbolicLink(atPath: staged, withDestinationPath: "../event7")
    #expect(rename(staged, byID + "/usb-Pad-event-joystick") == 0)
    #expect(rename(byID + "/usb-Pad-event-joystick", staged) == 0)
    #expect(
      changes(watcher, count: 2) == [
        .appeared("usb-Pad-event-joystick"), .disappeared("usb-Pad-event-joystick"),
      ])
    // Nothing else is pending, and waiting returns at its deadline.
    #expect(watcher.wait(milliseconds: 50).isEmpty)
  }

  @Test("writes in place are reported only when asked for (the broker's allow-list)")
  func writesInPlace() throws {
    let folder = try TemporaryDirectory()
    let file = folder.path + "/allow-list.json"
    try "[]".write(toFile: file, atomically: false, encoding: .utf8)
    let plain = try DirectoryWatcher(directory: folder.path)
    let writes = try DirectoryWatcher(directory: folder.path, reportingWrites: true)
    let handle = try #require(FileHandle(forWritingAtPath: file))
    handle.write(Data("[1]".utf8))
    try handle.close()
    #expect(changes(writes, count: 1) == [.written("allow-list.json")])
    // The other watcher saw the same write and says nothing of it.
    #expect(plain.wait(milliseconds: 50).isEmpty)
  }

  @Test("a directory that does not exist is refused with a sentence")
  func missingDirectory() throws {
    let folder = try TemporaryDirectory()
    let missing = folder.path + "/by-id"
    #expect(throws: DirectoryWatcherError.cannotWatch(directory: missing, errno: ENOENT)) {
      try DirectoryWatcher(directory: missing)
    }
    #expect(
      DirectoryWatcherError.cannotWatch(directory: missing, errno: ENOENT).description
        == "cannot watch \(missing) for files coming and going: No such file or directory")
  }
}
