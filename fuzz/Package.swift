// swift-tools-version: 6.2
// libFuzzer targets over the envelope decoder (through the broker's handling), the layout
// loaders, and peers' strings through the door's rules and the terminal renderer. A separate package so the root package's build never needs `-sanitize=fuzzer`:
// build and run them with `scripts/fuzz` (see the README's "Fuzzing").
import PackageDescription

/// Every fuzz target: no `main` of its own (libFuzzer's `main` calls `LLVMFuzzerTestOneInput`).
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
  name: "TenFootFuzz",
  dependencies: [.package(name: "TenFoot", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [
        .product(name: "BrokerCore", package: "TenFoot"),
        .product(name: "BrokerDomain", package: "TenFoot"),
        .product(name: "FocusEngine", package: "TenFoot"),
        .product(name: "TenFootProtocol", package: "TenFoot"),
        .product(name: "ScreenCore", package: "TenFoot"),
        .product(name: "TerminalScreen", package: "TenFoot"),
        .product(name: "TerminalUI", package: "TenFoot"),
      ]
    ),
    .executableTarget(
      name: "fuzz-envelope", dependencies: ["FuzzSupport"], swiftSettings: fuzzSettings),
    .executableTarget(
      name: "fuzz-layout-json", dependencies: ["FuzzSupport"], swiftSettings: fuzzSettings),
    .executableTarget(
      name: "fuzz-layout-wire", dependencies: ["FuzzSupport"], swiftSettings: fuzzSettings),
    .executableTarget(
      name: "fuzz-strings", dependencies: ["FuzzSupport"], swiftSettings: fuzzSettings),
  ],
  swiftLanguageModes: [.v6]
)
