// swift-tools-version: 6.0
import PackageDescription

let package = Package(
	name: "Defaults",
	platforms: [
		.macOS(.v15),
		.iOS(.v18),
		.tvOS(.v18),
		.watchOS(.v11),
		.visionOS(.v2),
	],
	products: [
		.library(name: "Defaults", targets: ["Defaults"]),
	],
	targets: [
		.target(name: "Defaults"),
		.executableTarget(
			name: "DefaultsDemo",
			dependencies: ["Defaults"]
		),
		.testTarget(
			name: "DefaultsTests",
			dependencies: ["Defaults"]
		),
	],
	swiftLanguageModes: [.v6]
)
