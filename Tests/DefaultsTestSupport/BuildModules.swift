import Foundation

/// What a `swiftc` run by a test needs to import the build's modules.
public enum BuildModules {
	/**
	The C modules of the build (OpenCombine's helpers, with the Combine trait),
	which the Swift modules import: `-Xcc -fmodule-map-file=…` for each.
	`buildFolder` holds the `*.build` folders (the parent of `Modules`).
	*/
	public static func moduleMapArguments(in buildFolder: URL) -> [String] {
		let folders = (try? FileManager.default.contentsOfDirectory(atPath: buildFolder.path)) ?? []
		return folders
			.filter { $0.hasSuffix(".build") && !$0.hasSuffix("-tool.build") }
			.map { buildFolder.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
			.filter { FileManager.default.fileExists(atPath: $0) }
			.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
	}

	/**
	Type-checks `source` as a user's file would be, against the build's modules
	(the folder beside `executable`), in the Swift `languageMode` with warnings
	as errors. Returns what the compiler printed and its status.
	*/
	public static func typecheck(_ source: String, languageMode: String, besideExecutable executable: String = "DefaultsTestHelper") throws -> ChildProcess.Result {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-typecheck-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		let file = folder.appendingPathComponent("Source.swift")
		try source.write(to: file, atomically: true, encoding: .utf8)

		let modules = ChildProcess.executable(named: executable).deletingLastPathComponent().appendingPathComponent("Modules")
		guard let swiftc = swiftc() else {
			throw TypecheckError.noCompiler
		}

		return try ChildProcess.run(
			path: swiftc,
			["-typecheck", "-swift-version", languageMode, "-warnings-as-errors", "-I", modules.path]
				+ moduleMapArguments(in: modules.deletingLastPathComponent()) + [file.path],
			environment: ProcessInfo.processInfo.environment
		)
	}

	public enum TypecheckError: Error, CustomStringConvertible {
		case noCompiler

		public var description: String {
			"swiftc not found on PATH"
		}
	}

	private static func swiftc() -> String? {
		let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
		return path.split(separator: ":")
			.map { "\($0)/swiftc" }
			.first { FileManager.default.isExecutableFile(atPath: $0) }
	}
}
