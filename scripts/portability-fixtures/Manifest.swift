// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Fixture",
    targets: [
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(name: "Guarded", dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
        .target(name: "Unguarded", dependencies: ["CEpoll"]), // flagged
    ]
)
