import DefaultsMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

private let macros: [String: MacroSpec] = ["ObservableDefault": MacroSpec(type: ObservableDefaultMacro.self)]

private func expectExpansion(
	_ source: String,
	expandsTo expected: String,
	diagnostics: [DiagnosticSpec] = [],
	fileName: String = "test.swift",
	sourceLocation: SourceLocation = #_sourceLocation
) {
	assertMacroExpansion(
		source,
		expandedSource: expected,
		diagnostics: diagnostics,
		macroSpecs: macros,
		testFileName: fileName,
		indentationWidth: .tab,
		failureHandler: { failure in
			Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
		}
	)
}

@Suite("@ObservableDefault expansion")
struct ObservableDefaultExpansionTests {
	@Test func expandsToTrackedAccessorsAndALink() {
		expectExpansion(
			"""
			@Observable
			final class UnicornManager {
				@ObservableDefault(.hasUnicorn)
				@ObservationIgnored
				var hasUnicorn: Bool
			}
			""",
			expandsTo: """
			@Observable
			final class UnicornManager {
				@ObservationIgnored
				var hasUnicorn: Bool {
					get {
						_defaultsLink_hasUnicorn.connect(.hasUnicorn) { [weak self] in
							self?.withMutation(keyPath: \\.hasUnicorn) {
							}
						}
						access(keyPath: \\.hasUnicorn)
						return Defaults[.hasUnicorn]
					}
					set {
						_defaultsLink_hasUnicorn.connect(.hasUnicorn) { [weak self] in
							self?.withMutation(keyPath: \\.hasUnicorn) {
							}
						}
						Defaults[.hasUnicorn] = newValue
					}
				}

				private let _defaultsLink_hasUnicorn = DefaultsMacros._ObservableDefaultLink()
			}
			"""
		)
	}

	@Test func acceptsAnyKeyExpression() {
		expectExpansion(
			"""
			@ObservableDefault(Defaults.Keys.volume)
			@ObservationIgnored
			var volume: Double
			""",
			expandsTo: """
			@ObservationIgnored
			var volume: Double {
				get {
					_defaultsLink_volume.connect(Defaults.Keys.volume) { [weak self] in
						self?.withMutation(keyPath: \\.volume) {
						}
					}
					access(keyPath: \\.volume)
					return Defaults[Defaults.Keys.volume]
				}
				set {
					_defaultsLink_volume.connect(Defaults.Keys.volume) { [weak self] in
						self?.withMutation(keyPath: \\.volume) {
						}
					}
					Defaults[Defaults.Keys.volume] = newValue
				}
			}

			private let _defaultsLink_volume = DefaultsMacros._ObservableDefaultLink()
			"""
		)
	}

	@Test func onALet() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			@ObservationIgnored
			let hasUnicorn: Bool
			""",
			expandsTo: """
			@ObservationIgnored
			let hasUnicorn: Bool
			""",
			diagnostics: [
				DiagnosticSpec(message: "@ObservableDefault cannot be applied to a 'let': declare it 'var' so it can be written", line: 3, column: 1),
			]
		)
	}

	@Test func withAnInitializer() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			@ObservationIgnored
			var hasUnicorn: Bool = true
			""",
			// The test support drops the initial value once accessors are added; the compiler keeps it
			// beside the `init` accessor (ObservableDefaultCompilerErrorTests compiles this case).
			expandsTo: """
			@ObservationIgnored
			var hasUnicorn: Bool {
				init(initialValue) {
				}
				get {
					fatalError("@ObservableDefault: see the error reported on this property")
				}
				set {
				}
			}
			""",
			diagnostics: [
				DiagnosticSpec(
					message: "remove the initial value: an @ObservableDefault property starts at its key's value, and its default comes from the key",
					line: 3,
					column: 22
				),
			]
		)
	}

	@Test func withAnAccessorBlock() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			@ObservationIgnored
			var hasUnicorn: Bool { true }
			""",
			expandsTo: """
			@ObservationIgnored
			var hasUnicorn: Bool { true }
			""",
			diagnostics: [
				DiagnosticSpec(message: "remove the accessor block: @ObservableDefault provides 'get' and 'set' itself", line: 3, column: 22),
			]
		)
	}

	@Test func withoutAKey() {
		expectExpansion(
			"""
			@ObservableDefault
			@ObservationIgnored
			var hasUnicorn: Bool
			""",
			expandsTo: """
			@ObservationIgnored
			var hasUnicorn: Bool {
				get {
					fatalError("@ObservableDefault: see the error reported on this property")
				}
				set {
				}
			}
			""",
			diagnostics: [
				DiagnosticSpec(message: "@ObservableDefault needs the key to store the property in: write '@ObservableDefault(.yourKey)'", line: 1, column: 1),
			]
		)
	}

	@Test func withoutAType() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			@ObservationIgnored
			var hasUnicorn
			""",
			expandsTo: """
			@ObservationIgnored
			var hasUnicorn
			""",
			diagnostics: [
				DiagnosticSpec(message: "@ObservableDefault needs the property's type: write 'var name: Type' (the key's value type)", line: 3, column: 5),
			]
		)
	}

	@Test func withoutObservationIgnored() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			var hasUnicorn: Bool
			""",
			expandsTo: """
			var hasUnicorn: Bool
			""",
			diagnostics: [
				DiagnosticSpec(
					message: "add '@ObservationIgnored' after '@ObservableDefault(…)' so @Observable leaves this property to the key",
					line: 1,
					column: 1
				),
			]
		)
	}

	/// Without @ObservationIgnored, @Observable copies the attribute onto the storage it makes (`_name`):
	/// the copy expands to nothing and says nothing, so the one error above is the only one the macro reports.
	@Test func onObservationStorageOfAPropertyWithoutObservationIgnored() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			@ObservationIgnored
			private var _hasUnicorn: Bool
			""",
			expandsTo: """
			@ObservationIgnored
			private var _hasUnicorn: Bool
			""",
			fileName: "@__swiftmacro_4test14UnicornManagerC03hasA018ObservationTrackedfMp_.swift"
		)
	}

	@Test func onAFunction() {
		expectExpansion(
			"""
			@ObservableDefault(.hasUnicorn)
			func hasUnicorn() {}
			""",
			expandsTo: """
			func hasUnicorn() {}
			""",
			diagnostics: [
				DiagnosticSpec(
					message: "@ObservableDefault can only be attached to a stored property: write '@ObservableDefault(.yourKey) @ObservationIgnored var name: Type'",
					line: 1,
					column: 1
				),
			]
		)
	}
}
