// swift-tools-version: 6.0
// Programs shaped like a user's service: loops that never exit and write keys.
// `scripts/check-release-build` builds them in release under a time limit, because
// the optimizer once spun forever on them (issue 13). Not part of the main package:
// it depends on the library as a user would, by path.
import Foundation
import PackageDescription

// A path dependency is named after its folder, which differs between clones and worktrees.
let libraryFolder = URL(fileURLWithPath: #filePath)
	.deletingLastPathComponent()
	.deletingLastPathComponent()
	.deletingLastPathComponent()

let defaults = Target.Dependency.product(name: "Defaults", package: libraryFolder.lastPathComponent)

/// One target per shape, so a shape that does not compile in time is named by its compiler process.
let loopShapes = [
	"IntCounterLoop",
	"StringWriteLoop",
	"CodableWriteLoop",
	"OptionalClearLoop",
	"PropertyWrapperLoop",
	"ObserveAndWriteLoop",
	"UpdatesWriteLoop",
	"CollectionMutationLoop",
]

let package = Package(
	name: "ReleaseBuildCheck",
	platforms: [.macOS(.v15)],
	dependencies: [
		.package(path: "../.."),
	],
	targets: loopShapes.map { .target(name: $0, dependencies: [defaults]) } + [
		// The program as written, plus a top-level `while true`.
		.executableTarget(name: "ServiceMain", dependencies: [defaults]),
	],
	swiftLanguageModes: [.v6]
)
