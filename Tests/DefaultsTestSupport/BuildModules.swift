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
}
