import Foundation
import TestSupport
import Testing

@Suite("deploy/: systemd units and the three-namespace demo", .serialized)
struct DeployTests {
  static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy")

  static var systemdAnalyze: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
  }

  @Test(
    "the units pass systemd-analyze verify",
    .enabled(if: systemdAnalyze, "needs systemd-analyze (bootstrap installs systemd)"))
  func verifyUnits() throws {
    let directory = try TemporaryDirectory()
    var files: [String] = []
    for name in ["tenfoot-broker", "tenfoot-screen", "tenfoot-remote"] {
      let text = try String(
        contentsOf: Self.deploy.appendingPathComponent("systemd/\(name).service"), encoding: .utf8)
      #expect(text.contains("NoNewPrivileges=yes") && text.contains("ProtectSystem=strict"))
      #expect(text.contains("StateDirectory=") && text.contains("EnvironmentFile=-/etc/tenfoot/"))
      // verify checks that ExecStart's binary exists: point it at the built one.
      files.append(
        try directory.write(
          "\(name).service",
          text.replacingOccurrences(of: "/usr/local/bin/", with: TestEnvironment.binDirectory + "/")
        ))
    }
    let verify = try ChildProcess("/usr/bin/systemd-analyze", ["verify"] + files)
    let status = try verify.waitForExit(timeout: 60)
    #expect(status == 0, "\(verify.errors)")
    let complaints = verify.errors.filter { line in files.contains { line.contains($0) } }
    #expect(complaints.isEmpty, "\(complaints)")
  }

  @Test(
    "deploy/netns-demo pairs and navigates across three namespaces and cleans up",
    .enabled(if: NamespaceNetwork.testsEnabled, "needs root and iproute2 (network namespaces)"))
  func netnsDemo() throws {
    try NamespaceNetwork.requireAvailable()
    let demo = try ChildProcess(
      Self.deploy.appendingPathComponent("netns-demo").path, [TestEnvironment.binDirectory])
    let status = try demo.waitForExit(timeout: 60)
    #expect(status == 0, "\(demo.output) \(demo.errors)")
    #expect(demo.output.last == "netns-demo: ok")
    #expect(demo.output.contains { $0.hasPrefix("paired: this remote is ") })
    let namespaces = try NamespaceNetwork.ip(["netns", "list"])
    #expect(!namespaces.contains { $0.hasPrefix("tfd\(demo.pid)") }, "\(namespaces)")
  }
}
