// swift-tools-version:6.0
import PackageDescription

// One target per layer; dependencies point down only:
// gatehouse (CLI) -> GatehouseDemo / GatehouseCore -> GatehouseIO / GatehouseGraphQL / GatehouseHTTP / GatehouseConfig -> C shims
// (CByteScan: the head scanner's SSE2 block scan, under GatehouseHTTP).
// GatehouseGraphQL (GraphQL lexer and parser, JSON, GraphQL-over-HTTP request decoding) is pure: no
// sockets, no HTTP statuses; it uses GatehouseHTTP only for the one percent-decoder.
// GatehouseDemo is the backend `gatehouse demo` runs, built on the same IO, HTTP and GraphQL code
// (and GatehouseCore only to mint its login tokens); the gateway itself never depends on it.
// GatehouseSDK (`gatehouse sdk swift`: SDL reader, operation type resolution, Swift client
// generator) reads config and GraphQL only; the CLI hands it the operations the gateway holds.
// The request path's modules skip Swift's run-time exclusivity checks in release builds: each
// access to a class's stored property otherwise costs a `swift_beginAccess` call (about 2% of
// the CPU per proxied request in `perf`). Debug builds, the tests and the sanitizer runs keep
// the checks, so a violation still shows there.
let exclusivityUnchecked: SwiftSetting = .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
// The product's modules use neither Swift concurrency nor regular expressions: without the
// implicit imports the binary does not load libswift_Concurrency, libdispatch,
// libswift_StringProcessing and libswift_RegexParser, about 1.8 MiB of resident memory at
// start. (The tests keep them: Swift Testing is built on concurrency.)
let leanRuntime: SwiftSetting = .unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import",
                                              "-Xfrontend", "-disable-implicit-string-processing-module-import"])
// The request path's modules also expose their bodies to each other in release builds, so a
// generic or protocol-extension call across a module boundary (a head's lookups, the buffer's
// appends) is specialized and inlined rather than made through witness tables that copy and
// retain: 5% fewer instructions per proxied request (callgrind).
let crossModule: SwiftSetting = .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
let hotPath: [SwiftSetting] = [exclusivityUnchecked, leanRuntime, crossModule]
let product: [SwiftSetting] = [leanRuntime]

let package = Package(
    name: "Gatehouse",
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"]),
    ],
    targets: [
        // DWARF 4 for the C shims: valgrind 3.19 (Debian's, run by the instructions benchmark)
        // cannot read clang's default DWARF 5 for them and gives up on the whole binary.
        .target(name: "CLinux", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "CByteScan", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1",
                       providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis",
                       providers: [.apt(["libhiredis-dev"])]),

        .target(name: "GatehouseIO", dependencies: ["CLinux", "COpenSSL", "CHiredis"], swiftSettings: hotPath),
        .target(name: "GatehouseHTTP", dependencies: ["CByteScan"], swiftSettings: hotPath),
        .target(name: "GatehouseConfig", dependencies: ["CYAML", "GatehouseIO", "GatehouseGraphQL"], swiftSettings: product),
        .target(name: "GatehouseGraphQL", dependencies: ["GatehouseHTTP"], swiftSettings: product),
        .target(name: "GatehouseCore",
                dependencies: ["GatehouseIO", "GatehouseHTTP", "GatehouseGraphQL", "GatehouseConfig",
                               "COpenSSL", "CZlib", "CLinux"],
                swiftSettings: hotPath),
        .target(name: "GatehouseDemo",
                dependencies: ["GatehouseIO", "GatehouseHTTP", "GatehouseGraphQL", "GatehouseCore"],
                swiftSettings: product),
        .target(name: "GatehouseSDK", dependencies: ["GatehouseGraphQL", "GatehouseConfig", "GatehouseIO"],
                swiftSettings: product),
        .executableTarget(name: "gatehouse",
                          dependencies: ["GatehouseCore", "GatehouseDemo", "GatehouseHTTP", "GatehouseGraphQL",
                                         "GatehouseSDK", "GatehouseIO"],
                          swiftSettings: product),

        .testTarget(name: "GatehouseIOTests", dependencies: ["GatehouseIO", "COpenSSL"]),
        .testTarget(name: "GatehouseHTTPTests", dependencies: ["GatehouseHTTP"]),
        .testTarget(name: "GatehouseConfigTests", dependencies: ["GatehouseConfig"]),
        .testTarget(name: "GatehouseGraphQLTests", dependencies: ["GatehouseGraphQL"]),
        .testTarget(name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseGraphQL"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "GatehouseDemoTests", dependencies: ["GatehouseDemo", "GatehouseGraphQL", "GatehouseHTTP"]),
        .testTarget(name: "GatehouseSDKTests", dependencies: ["GatehouseSDK", "GatehouseGraphQL", "GatehouseConfig"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
