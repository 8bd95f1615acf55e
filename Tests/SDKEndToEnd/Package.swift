// swift-tools-version:6.0
import PackageDescription

// The end-to-end check of `gatehouse sdk swift` (scripts/test-sdk.sh): an executable using two
// generated packages — the demo's client, run against `gatehouse demo`, and the Star Wars
// fixture's, which only has to build and decode. scripts/test-sdk.sh generates both into
// .build/ before building this.
let package = Package(
    name: "SDKEndToEnd",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../../.build/sdk-demo"),
        .package(path: "../../.build/sdk-starwars"),
    ],
    targets: [
        .executableTarget(name: "SDKEndToEnd", dependencies: [
            .product(name: "GatehouseDemoAPI", package: "sdk-demo"),
            .product(name: "StarWarsAPI", package: "sdk-starwars"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
