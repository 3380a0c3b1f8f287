// swift-tools-version:6.0
import PackageDescription

/// Understudy: one Swift server that stands in for the WarrantyLife, Sentilant Telematics,
/// WarpLink and Asleep backends. Module layering is described in docs/architecture.md; arrows point down only.
let package = Package(
    name: "Understudy",
    platforms: [.macOS(.v15)], // Synchronization's Mutex and Atomic need macOS 15
    products: [
        .executable(name: "understudy", targets: ["understudy"]),
        .library(name: "UnderstudyClient", targets: ["UnderstudyClient"]),
        .library(name: "UnderstudyTesting", targets: ["UnderstudyTesting"]),
        .library(name: "UnderstudyServer", targets: ["UnderstudyServer"]),
    ],
    targets: [
        // System libraries, reached through module maps only.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // macOS ships no OpenSSL headers: Homebrew's keg-only openssl@3 is found through its pkg-config file.
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.brew(["openssl@3"]), .apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // glibc's malloc_trim, for handing freed heap back once the server is idle (Linux only).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // libpq, for PostgreSQL as a shared store; Debian's header lives in /usr/include/postgresql.
        .systemLibrary(
            name: "CPostgreSQL", path: "Sources/CPostgreSQL", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),

        // Transport and storage: know nothing of platforms.
        // epoll is Linux's; elsewhere the server runs on its Dispatch loop and CEpoll is never built.
        .target(name: "HTTPServer", dependencies: ["CZlib", .target(name: "CEpoll", condition: .when(platforms: [.linux])), "COpenSSL"]),
        .target(name: "Storage", dependencies: ["CSQLite", "COpenSSL"]),
        .target(name: "PostgresStore", dependencies: ["CPostgreSQL", "Storage"]),

        // Control plane and what the platforms share.
        .target(name: "EmulatorCore", dependencies: ["HTTPServer", "Storage", "COpenSSL", .target(name: "CMalloc", condition: .when(platforms: [.linux]))]),

        // One module per platform, all the same shape; none imports another.
        .target(name: "WarpLinkEmulator", dependencies: ["EmulatorCore", "HTTPServer", "Storage"]),
        .target(name: "AsleepEmulator", dependencies: ["EmulatorCore", "HTTPServer", "Storage"]),
        .target(name: "WarrantyLifeEmulator", dependencies: ["EmulatorCore", "HTTPServer", "Storage"]),
        .target(name: "TelematicsEmulator", dependencies: ["EmulatorCore", "HTTPServer", "Storage"]),

        // The web dashboard: hand-written assets compiled into Swift string literals at build time
        // (`.embedInCode` resources cost tens of seconds of compile time per 100 KB here).
        .executableTarget(name: "DashboardAssetCompiler", path: "Sources/DashboardAssetCompiler"),
        .plugin(
            name: "DashboardAssetsPlugin", capability: .buildTool(), dependencies: ["DashboardAssetCompiler"],
            path: "Sources/DashboardAssetsPlugin"),
        .target(
            name: "UnderstudyDashboard", dependencies: ["EmulatorCore", "HTTPServer", "Storage"],
            exclude: ["Assets"], plugins: ["DashboardAssetsPlugin"]),

        .target(
            name: "UnderstudyServer",
            dependencies: [
                "EmulatorCore", "WarpLinkEmulator", "AsleepEmulator", "WarrantyLifeEmulator", "TelematicsEmulator", "UnderstudyDashboard",
                "PostgresStore", "COpenSSL",
                // The control commands (`understudy projects …`) talk to a running server as any client would.
                "UnderstudyClient",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ]),
        .executableTarget(name: "understudy", dependencies: ["UnderstudyServer"]),
        .target(name: "UnderstudyClient"),
        .target(name: "UnderstudyTesting", dependencies: ["UnderstudyServer", "UnderstudyClient", "HTTPServer", "PostgresStore"]),

        // posix_spawn'd child processes for the test suites (Foundation's Process can crash them).
        .target(name: "TestProcesses", path: "Tests/TestProcesses"),
        .target(name: "TestPostgres", dependencies: ["PostgresStore", "Storage", "TestProcesses"], path: "Tests/TestPostgres"),
        // Blocking loopback clients for the test suites: raw HTTP/1.1 on a socket, and TLS over OpenSSL.
        .target(name: "TestSockets", dependencies: ["COpenSSL"], path: "Tests/TestSockets"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CZlib", "COpenSSL", "TestSockets"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage"]),
        .testTarget(name: "PostgresStoreTests", dependencies: ["PostgresStore", "CPostgreSQL", "Storage", "TestProcesses", "TestPostgres"]),
        .testTarget(name: "EmulatorCoreTests", dependencies: ["EmulatorCore", "HTTPServer", "Storage"]),
        .testTarget(name: "WarpLinkEmulatorTests", dependencies: ["WarpLinkEmulator"]),
        .testTarget(name: "AsleepEmulatorTests", dependencies: ["AsleepEmulator"]),
        .testTarget(name: "WarrantyLifeEmulatorTests", dependencies: ["WarrantyLifeEmulator"]),
        .testTarget(name: "TelematicsEmulatorTests", dependencies: ["TelematicsEmulator"]),
        .testTarget(
            name: "UnderstudyDashboardTests",
            dependencies: [
                "UnderstudyDashboard", "UnderstudyServer", "UnderstudyTesting", "UnderstudyClient", "EmulatorCore", "HTTPServer",
            ]),
        // Unit tests that need no server: the platforms' stores on a real migrated SQLite file, the
        // server's configuration and idle work, the client's own encoding.
        .testTarget(
            name: "PlatformStoreTests",
            dependencies: ["WarpLinkEmulator", "AsleepEmulator", "WarrantyLifeEmulator", "TelematicsEmulator", "EmulatorCore", "Storage"]),
        .testTarget(
            name: "UnderstudyServerTests",
            dependencies: ["UnderstudyServer", "EmulatorCore", .target(name: "CMalloc", condition: .when(platforms: [.linux]))]),
        .testTarget(name: "UnderstudyClientTests", dependencies: ["UnderstudyClient", "CZlib"]),
        .testTarget(
            name: "UnderstudyEndToEndTests",
            dependencies: [
                "UnderstudyTesting", "UnderstudyClient", "UnderstudyServer", "HTTPServer", "CZlib", "COpenSSL", "TestProcesses", "TestPostgres", "PostgresStore", "TestSockets",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
