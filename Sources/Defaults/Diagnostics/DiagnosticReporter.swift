import Foundation

/**
The one place the library reports problems.

Tests capture diagnostics with ``capturing(_:)``; the capture is task-local, so
tests running in parallel never see each other's reports. A diagnostic the
library reports on a thread of its own (the change watcher's, a flush's) is in
no task: a test claims those by what they mention with
``claiming(where:_:)``.
*/
package enum DiagnosticReporter {
	/// Receives the diagnostics of one capture scope.
	final class Capture: Sendable {
		private let storage = Locked<[Defaults.Diagnostic]>([])

		var diagnostics: [Defaults.Diagnostic] { storage.withLock { $0 } }

		func append(_ diagnostic: Defaults.Diagnostic) {
			storage.withLock { $0.append(diagnostic) }
		}
	}

	@TaskLocal static var capture: Capture?

	/// Diagnostics reported outside any capture that a test expects, told apart by what they say.
	private struct Claim: Sendable {
		let matches: @Sendable (Defaults.Diagnostic) -> Bool
		let capture: Capture
	}

	private static let claims = Locked<[Claim]>([])

	static func report(_ diagnostic: Defaults.Diagnostic) {
		if let capture {
			capture.append(diagnostic)
			return
		}

		if let claim = claims.withLock({ $0.first { $0.matches(diagnostic) } }) {
			claim.capture.append(diagnostic)
			return
		}

		if let installed = DefaultsSystem.diagnosticHandler.withLock({ $0 }) {
			installed(diagnostic)
			return
		}

		FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
	}

	package static func report(_ kind: Defaults.Diagnostic.Kind, key: String?, suite: String? = nil, _ message: String) {
		report(Defaults.Diagnostic(kind: kind, key: key, message: message, suite: suite))
	}

	/// Reports a stored value that does not decode, once per suite, key and stored value (see ``Suite/isNewUndecodable(_:key:)``).
	static func reportUndecodable(_ stored: Any, key: String, in suite: Suite, _ message: String) {
		reportOnce(.undecodableValue, about: stored, key: key, in: suite, message)
	}

	/// Reports a fact about the value stored under `key` the first time a read meets that value.
	static func reportOnce(_ kind: Defaults.Diagnostic.Kind, about stored: Any, key: String, in suite: Suite, _ message: String) {
		guard suite.isNewUndecodable(stored, key: key) else {
			return
		}

		report(kind, key: key, suite: suite.displayName, message)
	}

	static func install(_ newHandler: (@Sendable (Defaults.Diagnostic) -> Void)?) {
		DefaultsSystem.diagnosticHandler.withLock { $0 = newHandler }
	}

	/// Runs `body`, returning its result and every diagnostic it reported.
	static func capturing<T>(_ body: () throws -> T) rethrows -> (T, [Defaults.Diagnostic]) {
		let capture = Capture()
		let result = try $capture.withValue(capture) { try body() }
		return (result, capture.diagnostics)
	}

	/// Runs `body`, returning its result and the diagnostics reported meanwhile, on any thread, outside any capture, that `matches` accepts (name the test's own suite, key or folder in it).
	package static func claiming<T>(where matches: @escaping @Sendable (Defaults.Diagnostic) -> Bool, _ body: () throws -> T) rethrows -> (T, [Defaults.Diagnostic]) {
		let capture = startClaim(matches)
		defer { endClaim(capture) }
		return (try body(), capture.diagnostics)
	}

	/// ``claiming(where:_:)`` for asynchronous work.
	package static func claimingAsync<T>(where matches: @escaping @Sendable (Defaults.Diagnostic) -> Bool, _ body: () async throws -> T) async rethrows -> (T, [Defaults.Diagnostic]) {
		let capture = startClaim(matches)
		defer { endClaim(capture) }
		return (try await body(), capture.diagnostics)
	}

	private static func startClaim(_ matches: @escaping @Sendable (Defaults.Diagnostic) -> Bool) -> Capture {
		let capture = Capture()
		claims.withLock { $0.append(Claim(matches: matches, capture: capture)) }
		return capture
	}

	private static func endClaim(_ capture: Capture) {
		claims.withLock { $0.removeAll { $0.capture === capture } }
	}

	/// Runs `body`, returning its result and every diagnostic it reported in its task.
	package static func capturingAsync<T>(_ body: () async throws -> T) async rethrows -> (T, [Defaults.Diagnostic]) {
		let capture = Capture()
		let result = try await $capture.withValue(capture) { try await body() }
		return (result, capture.diagnostics)
	}
}

extension Defaults {
	/**
	Routes the library's diagnostics to `handler` instead of standard error.

	Pass `nil` to restore the default (one line on standard error per diagnostic).

	```swift
	Defaults.setDiagnosticHandler { diagnostic in
		if diagnostic.kind == .undecodableValue {
			print("bad preference \(diagnostic.key ?? "?")")   // or your analytics
		}
	}
	```
	*/
	public static func setDiagnosticHandler(_ handler: (@Sendable (Diagnostic) -> Void)?) {
		DiagnosticReporter.install(handler)
	}
}
