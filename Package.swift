// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

/// OpenCombine stands in for Combine where Apple's is missing, and only with the `Combine` trait.
let openCombineWithTrait: Target.Dependency = .product(
	name: "OpenCombine",
	package: "OpenCombine",
	condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd], traits: ["Combine"])
)

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
		.library(name: "DefaultsMacros", targets: ["DefaultsMacros"]),
		.library(name: "DefaultsTesting", targets: ["DefaultsTesting"]),
		.executable(name: "defaults", targets: ["DefaultsTool"]),
		// PostgreSQL remote store: a separate product behind the `Postgres` trait (below).
		.library(name: "DefaultsPostgres", targets: ["DefaultsPostgres"]),
		// Empty unless the `Configuration` trait is on.
		.library(name: "DefaultsConfiguration", targets: ["DefaultsConfiguration"]),
		// Empty unless the `Logging` trait is on (the `Postgres` trait turns it on).
		.library(name: "DefaultsLogging", targets: ["DefaultsLogging"]),
	],
	// All off by default: without them nothing beyond Foundation is resolved or built for `Defaults`.
	// Their dependencies are guarded by the trait, so a package that does not enable one neither
	// resolves nor builds them (SwiftPM 6.2+ prunes them).
	traits: [
		.trait(name: "Combine", description: "Defaults.publisher(…) through OpenCombine where Apple’s Combine is missing (Apple platforms always have it)."),
		.trait(name: "Postgres", description: "The PostgreSQL remote store (product DefaultsPostgres), built on postgres-nio.", enabledTraits: ["Logging"]),
		.trait(name: "Logging", description: "DefaultsLogging: the library's diagnostics sent to a swift-log Logger, with their kind, suite and key as metadata."),
		.trait(name: "Configuration", description: "DefaultsConfiguration: a suite as a swift-configuration provider (ConfigReader reads it, `defaults write` changes it live)."),
	],
	dependencies: [
		// A package that uses only the `Defaults` product still resolves these two, and its first build
		// compiles argument-parser's two build-tool plugins (measured: about 1 s resolving in all and 0.5 s of
		// plugins in a 10–11 s first build on 2 cores; nothing of either package is compiled): SwiftPM resolves
		// what every product of a dependency needs, pruning only trait-guarded, test-only and unused
		// dependencies. Dropping the `DefaultsMacros` and `defaults` products would avoid it; the cost does not
		// justify that.
		.package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
		.package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
		.package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
		.package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
		.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
		.package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
		.package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
		// `swift package generate-documentation --target Defaults`; builds nothing unless run.
		.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
	],
	targets: [
		.target(
			name: "Defaults",
			dependencies: [openCombineWithTrait]
		),
		.target(
			name: "DefaultsPostgres",
			dependencies: [
				"Defaults",
				.product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
				.product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
			]
		),
		.target(
			name: "DefaultsLogging",
			dependencies: [
				"Defaults",
				.product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
			]
		),
		.macro(
			name: "DefaultsMacrosPlugin",
			dependencies: [
				.product(name: "SwiftSyntax", package: "swift-syntax"),
				.product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
				.product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
				.product(name: "SwiftDiagnostics", package: "swift-syntax"),
			]
		),
		.target(
			name: "DefaultsConfiguration",
			dependencies: [
				"Defaults",
				.product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
			]
		),
		.target(
			name: "DefaultsTesting",
			dependencies: ["Defaults"]
		),
		.target(
			name: "DefaultsMacros",
			dependencies: ["Defaults", "DefaultsMacrosPlugin"]
		),
		.executableTarget(
			name: "DefaultsTool",
			dependencies: [
				"Defaults",
				.product(name: "ArgumentParser", package: "swift-argument-parser"),
				// `defaults fleet --postgres`: linked only with the trait; without it the option says so.
				.target(name: "DefaultsPostgres", condition: .when(traits: ["Postgres"])),
				.product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
			]
		),
		// `swift run -c release DefaultsBenchmarks`: the library against raw UserDefaults, as ratios.
		.executableTarget(
			name: "DefaultsBenchmarks",
			dependencies: ["Defaults"],
			path: "Benchmarks/DefaultsBenchmarks"
		),
		// `scripts/postgres run swift run -c release DefaultsPostgresBenchmarks`: the PostgreSQL store next to the shared folder.
		.executableTarget(
			name: "DefaultsPostgresBenchmarks",
			dependencies: [
				"Defaults",
				"DefaultsPostgres",
				.product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
			],
			path: "Benchmarks/DefaultsPostgresBenchmarks"
		),
		// Spawns the executables the tests run as separate processes.
		.target(
			name: "DefaultsTestSupport",
			dependencies: ["Defaults"],
			path: "Tests/DefaultsTestSupport"
		),
		// Child processes for the persistence tests: crash, concurrency, exit paths, cross-process observation.
		.executableTarget(
			name: "DefaultsTestHelper",
			dependencies: ["Defaults", "DefaultsTesting", "DefaultsTestSupport"],
			path: "Tests/DefaultsTestHelper"
		),
		.testTarget(
			name: "DefaultsTests",
			dependencies: [
				"Defaults",
				"DefaultsTesting",
				"DefaultsTestSupport",
				.product(name: "PropertyBased", package: "swift-property-based"),
				openCombineWithTrait,
			]
		),
		// PostgreSQL store tests: against the throwaway server scripts/postgres starts (scripts/test does).
		.executableTarget(
			name: "DefaultsPostgresTestHelper",
			dependencies: [
				"Defaults",
				"DefaultsPostgres",
				.product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
			],
			path: "Tests/DefaultsPostgresTestHelper"
		),
		.testTarget(
			name: "DefaultsPostgresTests",
			dependencies: [
				"Defaults",
				"DefaultsPostgres",
				"DefaultsTesting",
				"DefaultsTestSupport",
				.product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
				.product(name: "Logging", package: "swift-log", condition: .when(traits: ["Postgres"])),
			]
		),
		.testTarget(
			name: "DefaultsLoggingTests",
			dependencies: [
				"Defaults",
				"DefaultsLogging",
				"DefaultsTestSupport",
				.product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
			]
		),
		.testTarget(
			name: "DefaultsToolTests",
			dependencies: ["Defaults", "DefaultsTestSupport"]
		),
		// Runs the `defaults` tool as the other process that changes a watched suite.
		.testTarget(
			name: "DefaultsConfigurationTests",
			dependencies: [
				"Defaults",
				"DefaultsConfiguration",
				"DefaultsTesting",
				"DefaultsTestSupport",
				.product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
				.product(name: "ConfigurationTesting", package: "swift-configuration", condition: .when(traits: ["Configuration"])),
			]
		),
		.testTarget(
			name: "DefaultsMacrosTests",
			dependencies: [
				"Defaults",
				"DefaultsMacros",
				"DefaultsMacrosPlugin",
				"DefaultsTesting",
				"DefaultsTestSupport",
				.product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
				.product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
			]
		),
	],
	swiftLanguageModes: [.v6]
)
