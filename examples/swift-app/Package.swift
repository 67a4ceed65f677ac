// swift-tools-version: 6.2
// A TenFoot app in its own package: a menu whose items open pages, with back (docs/apps.md).
// It depends on TenFoot by path; another package would use
// .package(url: "https://…/tenfoot", from: "…") the same way.
import PackageDescription

let package = Package(
  name: "MenuApp",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "TenFoot", path: "../..")],
  targets: [
    .executableTarget(
      name: "menu-app", dependencies: [.product(name: "TenFootKit", package: "TenFoot")],
      path: "Sources/MenuApp"),
    // The same menu in the async style: `for await` over the events, `await` the commands.
    .executableTarget(
      name: "menu-app-async", dependencies: [.product(name: "TenFootKit", package: "TenFoot")],
      path: "Sources/AsyncMenuApp"),
  ]
)
