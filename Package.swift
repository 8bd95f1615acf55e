// swift-tools-version:6.0
import PackageDescription

// One target per layer; dependencies point down only:
// gatehouse (CLI) -> GatehouseCore -> GatehouseIO / GatehouseHTTP / GatehouseConfig -> C shims.
let package = Package(
    name: "Gatehouse",
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"]),
    ],
    targets: [
        .target(name: "CLinux"),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),

        .target(name: "GatehouseIO", dependencies: ["CLinux", "COpenSSL"]),
        .target(name: "GatehouseHTTP"),
        .target(name: "GatehouseConfig", dependencies: ["CYAML"]),
        .target(name: "GatehouseCore",
                dependencies: ["GatehouseIO", "GatehouseHTTP", "GatehouseConfig", "COpenSSL", "CZlib", "CLinux"]),
        .executableTarget(name: "gatehouse", dependencies: ["GatehouseCore", "GatehouseHTTP"]),

        .testTarget(name: "GatehouseIOTests", dependencies: ["GatehouseIO", "COpenSSL"]),
        .testTarget(name: "GatehouseHTTPTests", dependencies: ["GatehouseHTTP"]),
        .testTarget(name: "GatehouseConfigTests", dependencies: ["GatehouseConfig"]),
        .testTarget(name: "GatehouseCoreTests", dependencies: ["GatehouseCore"], exclude: ["Fixtures"]),
        .testTarget(name: "gatehouseTests", dependencies: ["gatehouse"]),
    ],
    swiftLanguageModes: [.v6]
)
