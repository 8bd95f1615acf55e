// swift-tools-version:6.0
import PackageDescription

// One target per layer; dependencies point down only:
// gatehouse (CLI) -> GatehouseCore -> GatehouseIO / GatehouseGraphQL / GatehouseHTTP / GatehouseConfig -> C shims.
// GatehouseGraphQL (GraphQL lexer and parser, JSON, GraphQL-over-HTTP request decoding) is pure: no
// sockets, no HTTP statuses; it uses GatehouseHTTP only for the one percent-decoder.
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
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis",
                       providers: [.apt(["libhiredis-dev"])]),

        .target(name: "GatehouseIO", dependencies: ["CLinux", "COpenSSL", "CHiredis"]),
        .target(name: "GatehouseHTTP"),
        .target(name: "GatehouseConfig", dependencies: ["CYAML"]),
        .target(name: "GatehouseGraphQL", dependencies: ["GatehouseHTTP"]),
        .target(name: "GatehouseCore",
                dependencies: ["GatehouseIO", "GatehouseHTTP", "GatehouseGraphQL", "GatehouseConfig",
                               "COpenSSL", "CZlib", "CLinux"]),
        .executableTarget(name: "gatehouse", dependencies: ["GatehouseCore", "GatehouseHTTP", "GatehouseGraphQL"]),

        .testTarget(name: "GatehouseIOTests", dependencies: ["GatehouseIO", "COpenSSL"]),
        .testTarget(name: "GatehouseHTTPTests", dependencies: ["GatehouseHTTP"]),
        .testTarget(name: "GatehouseConfigTests", dependencies: ["GatehouseConfig"]),
        .testTarget(name: "GatehouseGraphQLTests", dependencies: ["GatehouseGraphQL"]),
        .testTarget(name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseGraphQL"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "gatehouseTests", dependencies: ["gatehouse"]),
    ],
    swiftLanguageModes: [.v6]
)
