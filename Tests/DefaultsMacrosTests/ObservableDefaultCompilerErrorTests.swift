import DefaultsTestSupport
import Foundation
import Testing

/**
What the compiler prints for each misuse of `@ObservableDefault`: the
library's one message, and only the follow-on errors the macro system leaves
(listed in the macro's documentation). Each case is type-checked by `swiftc`
against the built modules and macro plugin.
*/
@Suite("@ObservableDefault misuse: the compiler's errors")
struct ObservableDefaultCompilerErrorTests {
	struct Misuse: Sendable, CustomTestStringConvertible {
		let name: String
		let property: String
		/// The errors expected, each by a part of its text.
		let errors: [String]

		var testDescription: String { name }
	}

	static let misuses = [
		Misuse(name: "correct use", property: "@ObservableDefault(.flag) @ObservationIgnored var flag: Bool", errors: []),
		Misuse(name: "no key", property: "@ObservableDefault @ObservationIgnored var flag: Bool", errors: ["needs the key"]),
		Misuse(name: "an initial value", property: "@ObservableDefault(.flag) @ObservationIgnored var flag: Bool = true", errors: ["remove the initial value"]),
		Misuse(name: "an accessor block", property: "@ObservableDefault(.flag) @ObservationIgnored var flag: Bool { true }", errors: ["remove the accessor block"]),
		Misuse(
			name: "no @ObservationIgnored",
			property: "@ObservableDefault(.flag) var flag: Bool",
			errors: ["add '@ObservationIgnored'", "did not produce a non-observing accessor"]
		),
		Misuse(
			name: "a let",
			property: "@ObservableDefault(.flag) @ObservationIgnored let flag: Bool",
			errors: ["cannot be applied to a 'let'", "did not produce a non-observing accessor"]
		),
		Misuse(
			name: "no type",
			property: "@ObservableDefault(.flag) @ObservationIgnored var flag",
			errors: ["needs the property's type", "did not produce a non-observing accessor", "type annotation missing in pattern"]
		),
		Misuse(
			name: "a function",
			property: "@ObservableDefault(.flag) func flag() {}",
			errors: ["can only be attached to a stored property", "'accessor' macro cannot be attached to instance method"]
		),
	]

	@Test("each misuse gives the library's message and only the follow-on errors documented", arguments: misuses)
	func compilerErrors(_ misuse: Misuse) throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observable-default-misuse-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }

		let source = folder.appendingPathComponent("Model.swift")
		try """
			import Defaults
			import DefaultsMacros
			import Observation

			extension Defaults.Keys {
				static let flag = Key<Bool>("flag", default: false)
			}

			@Observable
			final class Model {
				\(misuse.property)
			}

			""".write(to: source, atomically: true, encoding: .utf8)

		let plugin = ChildProcess.executable(named: "DefaultsMacrosPlugin-tool")
		let modules = plugin.deletingLastPathComponent().appendingPathComponent("Modules")
		let result = try ChildProcess.run(
			path: "/usr/bin/env",
			[
				"swiftc", "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm",
				"-I", modules.path, "-load-plugin-executable", "\(plugin.path)#DefaultsMacrosPlugin", source.path,
			] + BuildModules.moduleMapArguments(in: modules.deletingLastPathComponent()),
			environment: ProcessInfo.processInfo.environment
		)

		let diagnostics = result.errorOutput.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
		#expect(diagnostics.count == misuse.errors.count, "\(result.errorOutput)")
		#expect(diagnostics.allSatisfy { $0.contains(": error: ") }, "\(result.errorOutput)")
		// In whatever order the compiler prints them.
		for expected in misuse.errors {
			#expect(diagnostics.contains { $0.contains(expected) }, "\(result.errorOutput)")
		}

		#expect(result.status == (misuse.errors.isEmpty ? 0 : 1), "\(result.errorOutput)")
	}
}
