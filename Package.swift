// swift-tools-version: 6.2
// The generated protobuf code uses `nonisolated struct`, which needs tools 6.2.
import PackageDescription

let package = Package(
  name: "TenFoot",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "tenfoot-broker", targets: ["tenfoot-broker"]),
    .executable(name: "tenfoot-screen", targets: ["tenfoot-screen"]),
    .executable(name: "tenfoot-remote", targets: ["tenfoot-remote"]),
    .library(name: "FocusEngine", targets: ["FocusEngine"]),
    .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
    .library(name: "TenFootProtocol", targets: ["TenFootProtocol"]),
    // For the libFuzzer targets in fuzz/ (a separate package), which fuzz the broker's handling
    // and the terminal renderer.
    .library(name: "BrokerCore", targets: ["BrokerCore"]),
    .library(name: "BrokerDomain", targets: ["BrokerDomain"]),
    .library(name: "ScreenCore", targets: ["ScreenCore"]),
    .library(name: "TerminalScreen", targets: ["TerminalScreen"]),
    .library(name: "TerminalUI", targets: ["TerminalUI"]),
    // The library an app on TenFoot depends on (docs/apps.md, examples/swift-app).
    .library(name: "TenFootKit", targets: ["TenFootKit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    // SQLite for the broker's session store (links Debian's libsqlite3, see scripts/bootstrap).
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    // PostgreSQL for a zone of brokers sharing one store (active/standby failover).
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
  ],
  targets: [
    .systemLibrary(
      name: "CZeroMQ",
      pkgConfig: "libzmq",
      providers: [.apt(["libzmq3-dev"])]
    ),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    // Avahi's client library (DNS-SD over mDNS through avahi-daemon): brokers announce
    // themselves, remotes and screens find them by name.
    .systemLibrary(
      name: "CAvahi", pkgConfig: "avahi-client", providers: [.apt(["libavahi-client-dev"])]),
    // Retrying a system call a signal interrupted, in one place. No dependencies.
    .target(name: "SystemCalls"),
    // A zone's one "fenced": a write refused because a newer broker of the zone took over.
    // Shared by the session store, the allow-list and leadership. No dependencies.
    .target(name: "ZoneFencing"),
    .target(name: "ZeroMQ", dependencies: ["CZeroMQ", "SystemCalls"]),
    .target(
      name: "TenFootSecurity", dependencies: ["ZeroMQ", "CSodium", "SystemCalls", "ZoneFencing"]),
    .target(name: "FocusEngine"),
    // Linux input devices, pure: evemu recordings, the mapping file, kernel events -> remote
    // keys. Neither ZeroMQ nor protobuf.
    .target(name: "InputDevices", dependencies: ["FocusEngine"]),
    // libevdev (live /dev/input nodes) and the kernel CEC framework's ioctls.
    .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
    .systemLibrary(name: "CLinuxCEC"),
    // The thin Linux shells around InputDevices: libevdev nodes, inotify on /dev/input/by-id,
    // /dev/cecN. No ZeroMQ or protobuf.
    // inotify's event records read in one place (hot-plug for the remote, the allow-list for
    // the broker). No dependencies.
    .target(name: "LinuxFiles", dependencies: ["SystemCalls"]),
    .target(name: "LinuxInput", dependencies: ["InputDevices", "CEvdev", "CLinuxCEC"]),
    .target(
      name: "TenFootProtocol",
      dependencies: ["FocusEngine", .product(name: "SwiftProtobuf", package: "swift-protobuf")]
    ),
    // wcwidth in a UTF-8 locale for TerminalUI (Glibc does not export wcwidth to Swift).
    .target(name: "CWidth"),
    // glibc's mallopt for the broker's start-up (Swift's Glibc module does not export it).
    .target(name: "CMalloc"),
    .target(name: "TerminalUI", dependencies: ["Colour", "CWidth", "SystemCalls"]),
    // 24-bit colours and their WCAG contrast: shared by the terminal, SVG and web renderers.
    .target(name: "Colour"),
    .target(
      name: "TenFootClient",
      dependencies: ["ZeroMQ", "FocusEngine", "TenFootProtocol", "TenFootSecurity"]),
    // Discovery on the local network: the broker's announcement and the clients' browser.
    .target(
      name: "TenFootDiscovery",
      dependencies: [
        "CAvahi", "TenFootProtocol", .product(name: "Logging", package: "swift-log"),
      ]),
    .target(
      name: "TenFootCLI",
      dependencies: [
        "FocusEngine", "TenFootProtocol", "TenFootClient", "TenFootSecurity", "TenFootDiscovery",
        "ZeroMQ",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The broker's rules, pure: sessions, input, focus requests, patches, pairing, flood and
    // revoke decisions over its own request, reply and effect values. Engine only.
    .target(name: "BrokerDomain", dependencies: ["FocusEngine"]),
    // The broker's durable session store: SQLite (WAL) through GRDB, plain values in and out.
    .target(
      name: "TenFootStore",
      dependencies: [
        "ZoneFencing",
        .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API for the commit path (SessionWriter).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The zone store on PostgreSQL: sessions fenced by the zone's term, the zone's advisory
    // lock (who is active), versioned migrations. Synchronous calls over postgres-nio.
    .target(
      name: "TenFootPostgres",
      dependencies: [
        "TenFootStore", "TenFootSecurity", "ZoneFencing",
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The broker's runtime: sockets, the loop, wire <-> domain mapping, ZAP, files.
    .target(
      name: "BrokerCore",
      dependencies: [
        "BrokerDomain", "ZeroMQ", "FocusEngine", "TenFootProtocol", "TenFootSecurity",
        "TenFootStore", "LinuxFiles",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The screen's client: the loop, the Clone sync with the broker, control requests, input
    // and app reactions, the frame every renderer draws and the `Renderer` protocol.
    .target(
      name: "ScreenCore",
      dependencies: [
        "ZeroMQ", "FocusEngine", "TenFootProtocol", "TenFootClient", "TenFootSecurity", "Colour",
        "SystemCalls",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // A QR code encoder, pure (the phone remote's link). No dependencies.
    .target(name: "QREncoder"),
    // The renderers: each depends on ScreenCore's frame and `Renderer`, never the reverse.
    .target(
      name: "TerminalScreen",
      dependencies: ["ScreenCore", "FocusEngine", "Colour", "TerminalUI", "QREncoder"]),
    .target(name: "SVGScreen", dependencies: ["ScreenCore", "FocusEngine", "Colour", "QREncoder"]),
    .target(name: "HeadlessScreen", dependencies: ["ScreenCore", "FocusEngine"]),
    // Speech (`--speak`): announcements spoken through speech-dispatcher or espeak-ng.
    .target(
      name: "ScreenSpeech",
      dependencies: [
        "ScreenCore", "FocusEngine", "SystemCalls", .product(name: "Logging", package: "swift-log"),
      ]),
    // The public app API: ScreenApp, events and commands, and TenFootApp, which runs an app
    // inside a screen or as its own process.
    .target(
      name: "TenFootKit",
      dependencies: [
        "FocusEngine", "ScreenCore", "TerminalScreen", "HeadlessScreen", "TenFootCLI",
        "TenFootClient", "TenFootProtocol", "TenFootSecurity", "ZeroMQ",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The built-in catalog app, built on TenFootKit's public API only.
    .target(name: "CatalogDemo", dependencies: ["TenFootKit"]),
    // The web renderer: a Hummingbird server with a WebSocket, kept out of ScreenCore so the
    // terminal and headless screens' tests do not build the HTTP stack.
    .target(
      name: "WebScreen",
      dependencies: [
        "ScreenCore", "TenFootProtocol", "TenFootSecurity", "TenFootClient", "ZeroMQ", "Colour",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The phone remote (`--phone-remote`): one-time codes, one paired key and connection per
    // phone, and the remote-only page it serves on the web renderer's server.
    .target(
      name: "PhoneRemote",
      dependencies: [
        "WebScreen", "ScreenCore", "QREncoder", "FocusEngine", "TenFootClient", "TenFootProtocol",
        "TenFootSecurity", "ZeroMQ",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .target(
      name: "RemoteCore",
      dependencies: [
        "ZeroMQ", "TenFootProtocol", "TenFootClient", "TerminalUI", "InputDevices",
        "LinuxInput", "LinuxFiles", "SystemCalls",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // A zone's broker on PostgreSQL: stands by, takes the zone's lock, serves, steps down.
    .target(
      name: "ZoneBroker",
      dependencies: [
        "BrokerCore", "TenFootPostgres", "TenFootStore", "TenFootSecurity", "ZeroMQ",
        "ZoneFencing", .product(name: "Logging", package: "swift-log"),
      ]),
    .executableTarget(
      name: "tenfoot-broker",
      dependencies: [
        "BrokerCore", "BrokerDomain", "CMalloc", "FocusEngine", "TenFootCLI", "TenFootProtocol",
        "TenFootSecurity", "TerminalUI", "TenFootPostgres", "TenFootStore", "TenFootDiscovery",
        "ZoneBroker",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "tenfoot-screen",
      dependencies: [
        "ScreenCore", "TerminalScreen", "SVGScreen", "HeadlessScreen", "WebScreen", "PhoneRemote",
        "ScreenSpeech", "TenFootCLI", "TenFootClient", "TenFootSecurity", "CatalogDemo",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "tenfoot-remote",
      dependencies: [
        "FocusEngine", "InputDevices", "LinuxInput", "RemoteCore", "TenFootCLI", "TenFootClient",
        "TenFootSecurity", "TerminalUI", "TenFootDiscovery",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Benchmarks: an executable that prints figures (scripts/bench), never a timed test.
    .executableTarget(
      name: "tenfoot-bench",
      dependencies: [
        "ZeroMQ", "FocusEngine", "TenFootProtocol", "TenFootClient", "ScreenCore", "TestSupport",
        "TenFootStore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
        .product(name: "Logging", package: "swift-log"),
        // The page path (PageBench): Chromium over DevTools, and a bare WebSocket relay.
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
      ]
    ),
    // Prints the focus engine's speed (scripts/bench-engine); not part of the test run.
    .executableTarget(
      name: "tenfoot-engine-bench", dependencies: ["FocusEngine", "TenFootProtocol", "CMalloc"],
      linkerSettings: [.linkedLibrary("m")]),
    // posix_spawn with every inherited descriptor closed, for TestSupport's ChildProcess.
    .target(name: "CSpawn"),
    .target(
      name: "TestSupport",
      dependencies: [
        "FocusEngine", "TenFootProtocol", "ZeroMQ", "CSpawn", "SystemCalls",
        // The frames the renderers' test targets share, and WCAG contrast pairs.
        "ScreenCore", "Colour",
        // The DevTools client the browser tests and the page benchmark share.
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(name: "FocusEngineTests", dependencies: ["FocusEngine"]),
    .testTarget(
      name: "InputDevicesTests", dependencies: ["InputDevices", "FocusEngine"],
      resources: [.copy("Fixtures")]),
    // The broker's rules in memory, without sockets, like the engine's tests.
    // Real libevdev (devices made with libevdev_new, no kernel node), inotify on a temporary
    // directory, and the refusal of paths that are not devices.
    .testTarget(
      name: "LinuxInputTests",
      dependencies: ["LinuxInput", "InputDevices", "CEvdev", "TestSupport"]),
    .testTarget(name: "LinuxFilesTests", dependencies: ["LinuxFiles", "TestSupport"]),
    .testTarget(name: "BrokerDomainTests", dependencies: ["BrokerDomain", "FocusEngine"]),
    .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Colour"]),
    .testTarget(name: "ColourTests", dependencies: ["Colour"]),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
    // FocusEngine for its seeded generator (SplitMix64), as the other suites use it.
    .testTarget(name: "ZeroMQTests", dependencies: ["ZeroMQ", "FocusEngine"]),
    .testTarget(
      name: "TenFootClientTests",
      dependencies: ["TenFootClient", "FocusEngine", "TenFootProtocol", "TestSupport", "ZeroMQ"]),
    // CPace, sealed PINs, key files, the allow-list and state directories.
    .testTarget(
      name: "TenFootSecurityTests", dependencies: ["TenFootSecurity", "TestSupport", "ZeroMQ"]),
    .testTarget(
      name: "TenFootStoreTests",
      dependencies: [
        "TenFootStore", "TestSupport", .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "RemoteCoreTests",
      dependencies: [
        "RemoteCore", "FocusEngine", "TenFootProtocol", "TestSupport", "ZeroMQ", "InputDevices",
        "LinuxInput", .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "TenFootCLITests",
      dependencies: ["TenFootCLI", .product(name: "Logging", package: "swift-log")]),
    .testTarget(
      name: "ScreenCoreTests",
      dependencies: [
        "ScreenCore", "FocusEngine", "TenFootProtocol", "Colour", "TestSupport", "ZeroMQ",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The terminal renderer's snapshots are in Tests/TerminalScreenTests/__Snapshots__.
    .testTarget(
      name: "TerminalScreenTests",
      dependencies: [
        "TerminalScreen", "ScreenCore", "FocusEngine", "TerminalUI", "Colour", "TestSupport",
        "CatalogDemo",
      ]),
    .testTarget(
      name: "SVGScreenTests",
      dependencies: ["SVGScreen", "ScreenCore", "FocusEngine", "Colour", "TestSupport"]),
    .testTarget(
      name: "HeadlessScreenTests",
      dependencies: ["HeadlessScreen", "ScreenCore", "FocusEngine", "TestSupport"]),
    // espeak-ng into WAV files, and a real speech-dispatcher daemon.
    .testTarget(
      name: "ScreenSpeechTests",
      dependencies: ["ScreenSpeech", "ScreenCore", "FocusEngine", "TestSupport", "LinuxFiles"]),
    // Codes read back by zbarimg.
    .testTarget(name: "QREncoderTests", dependencies: ["QREncoder", "TestSupport"]),
    .testTarget(
      name: "WebScreenTests",
      dependencies: ["WebScreen", "TestSupport", .product(name: "Logging", package: "swift-log")]
    ),
    .testTarget(name: "PhoneRemoteTests", dependencies: ["PhoneRemote"]),
    .testTarget(
      name: "TenFootPostgresTests",
      dependencies: [
        "TenFootPostgres", "TenFootStore", "TestSupport", "BrokerCore", "FocusEngine",
        "TenFootProtocol", "ZeroMQ", "TenFootSecurity", "TenFootClient", "ZoneFencing",
        .product(name: "Logging", package: "swift-log"),
      ]),
    .testTarget(
      name: "TenFootProtocolTests", dependencies: ["TenFootProtocol", "FocusEngine", "TestSupport"]),
    .testTarget(
      name: "ZoneBrokerTests", dependencies: ["ZoneBroker", "TenFootStore", "ZoneFencing"]),
    // TenFootKit's async surface: its bookkeeping in memory, and an app connected in-process
    // to a real broker process driven by the real remote.
    .testTarget(
      name: "TenFootKitTests",
      dependencies: [
        "TenFootKit", "TestSupport", .product(name: "Logging", package: "swift-log"),
        // Chromium's DevTools socket, for the web screen's virtual content (AsyncAppTests).
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        "tenfoot-broker", "tenfoot-remote", "tenfoot-screen",
      ]),
    .testTarget(
      name: "BrokerCoreTests",
      dependencies: [
        "BrokerCore", "BrokerDomain", "ZeroMQ", "FocusEngine", "TenFootProtocol", "TenFootSecurity",
        "TenFootStore", "TestSupport", "CMalloc", "TenFootClient", "ScreenCore",
      ]
    ),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "TestSupport", "ZeroMQ", "TenFootProtocol", "LinuxFiles", "TenFootClient",
        "TenFootSecurity",
        "FocusEngine",
        // A WebSocket client plays the web renderer's page in WebScreenTests.
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
        // Depending on the executables makes `swift test` build them first.
        "tenfoot-broker", "tenfoot-screen", "tenfoot-remote", "tenfoot-bench",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
